import { randomBytes } from 'node:crypto';
import type { BoardRecord } from '@mecha/appraisal-core';

/** A fresh `task-` id that no row of the board has. */
export function newTaskId(board: readonly BoardRecord[]): string {
  const taken = new Set(board.map((row) => row.id));
  for (;;) {
    const id = `task-${randomBytes(4).toString('hex')}`;
    if (!taken.has(id)) return id;
  }
}
