import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openAppraiser } from './appraiser.js';
import type { AppraiserStatus } from './appraiser-types.js';

/** The appraiser's status, and whether its memory exists yet. */
export type AppraiserStatusRead = AppraiserStatus & { readonly memory: 'present' | 'absent' };

/**
 * The status of the appraiser whose memory is in `directory`, for a readout: reads never write,
 * so a folder with no `memory.sqlite` yet is left untouched and answers the status a new memory
 * starts with (`memory: 'absent'`; taken from a throwaway memory, removed before returning).
 */
export function appraiserStatusAt(directory: string): AppraiserStatusRead {
  const present = existsSync(join(directory, 'memory.sqlite'));
  const scratch = present ? undefined : mkdtempSync(join(tmpdir(), 'mecha-appraiser-status-'));
  try {
    const appraiser = openAppraiser({ directory: scratch ?? directory });
    try {
      return { ...appraiser.status(), memory: present ? 'present' : 'absent' };
    } finally {
      appraiser.close();
    }
  } finally {
    if (scratch !== undefined) rmSync(scratch, { recursive: true, force: true });
  }
}
