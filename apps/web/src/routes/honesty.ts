import type { Hono } from 'hono';
import { honestyPage } from '../pages/honesty-page.js';
import type { BoardContext } from './board-context.js';

/**
 * The Honesty page: `auditHomeSelfImage` of @mecha/grader-verdicts over the home, read fresh
 * on each visit. The package is loaded on the first visit (it brings the TypeScript compiler
 * for its other graders), so the board starts without it.
 */
export function honestyRoutes(app: Hono, board: BoardContext): void {
  app.get('/honesty', async (context) => {
    const { auditHomeSelfImage, reliabilityFloor } = await import('@mecha/grader-verdicts');
    return board.render(context, {
      title: 'Honesty',
      current: '/honesty',
      content: honestyPage(await auditHomeSelfImage(board.home), reliabilityFloor),
    });
  });
}
