import { statSync } from 'node:fs';
import { join } from 'node:path';
import type { HomeSelfImage } from '@mecha/grader-verdicts';
import { homeLayout } from '@mecha/stores';
import type { Hono } from 'hono';
import { honestyPage } from '../pages/honesty-page.js';
import type { BoardContext } from './board-context.js';

/** The stores the audit reads besides the session listing (which the readout's version covers). */
const auditedStores = [homeLayout.textAppraisals, homeLayout.scores, homeLayout.ownerOutcomes];

/** What each audited store's file is now (size, change time, inode), or that it is missing. */
function storesSignature(home: string): string {
  return auditedStores
    .map((file) => {
      try {
        const stat = statSync(join(home, file));
        return `${stat.ino}:${stat.size}:${stat.mtimeMs}:${stat.ctimeMs}`;
      } catch (error) {
        return (error as NodeJS.ErrnoException).code ?? 'error';
      }
    })
    .join('|');
}

/**
 * The Honesty page: `auditHomeSelfImage` of @mecha/grader-verdicts over the home. The audit is
 * kept until the readout changes or one of the stores it reads does. The package is loaded on
 * the first visit (it brings the TypeScript compiler for its other graders), so the board
 * starts without it.
 */
export function honestyRoutes(app: Hono, board: BoardContext): void {
  let kept:
    | {
        readonly key: string;
        readonly read: HomeSelfImage | { readonly unreadable: readonly string[] };
      }
    | undefined;
  app.get('/honesty', async (context) => {
    const { auditHomeSelfImage, reliabilityFloor } = await import('@mecha/grader-verdicts');
    const key = `${board.readout.version}|${storesSignature(board.home.path)}`;
    if (kept?.key !== key) kept = { key, read: await auditHomeSelfImage(board.home) };
    return board.render(context, {
      title: 'Honesty',
      current: '/honesty',
      content: honestyPage(kept.read, reliabilityFloor),
    });
  });
}
