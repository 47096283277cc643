import { openHome } from '@mecha/stores';
import { expect, it } from 'vitest';
import { boardApp, emptyHome, origin } from './helpers.js';

// An imported session's trace names, beside each event, the line of the source log it came from,
// as `mecha sessions appraise ID` prints it ("from FILE:LINE (ID)"). The events are appended the
// way the importers append them (the session store's own validated `append`).

it('shows each imported event’s source file, line and id on the trace; none for the harness’s own', async () => {
  const path = emptyHome();
  const home = openHome(path);
  const sessionId = 's-imported-1';
  const run = 'r-imported-1';
  const at = '2026-11-30T10:00:00.000Z';
  const file = '/logs/<proj>/a.jsonl';
  const written = await home.sessions.append(sessionId, [
    {
      v: 1,
      at,
      run_id: run,
      type: 'run_start',
      session_id: sessionId,
      surface: 'claude-code',
      source: { file, line: 1 },
    },
    {
      v: 1,
      at,
      run_id: run,
      type: 'message',
      turn: 1,
      message_id: 'm-1',
      role: 'owner',
      taint: 'clean',
      text: 'Fix the build.',
      source: { file, line: 2, id: 'uuid-2' },
    },
    {
      v: 1,
      at,
      run_id: run,
      type: 'tool_call',
      turn: 1,
      call_id: 'c-1',
      tool: 'Bash',
      source: { file, line: 3, id: 'toolu_3' },
    },
    {
      v: 1,
      at,
      run_id: run,
      type: 'message',
      turn: 1,
      message_id: 'm-2',
      role: 'assistant',
      taint: 'clean',
      text: 'Done.',
    },
    { v: 1, at, run_id: run, type: 'run_end', stop_cause: 'completed', turns: 1 },
  ]);
  expect(written._tag).toBe('Right');
  const { app } = await boardApp(path);
  const page = await (await app.request(`${origin}/sessions/${sessionId}`)).text();
  expect(page).toContain('from <code>/logs/&lt;proj&gt;/a.jsonl:1</code>');
  expect(page).toContain('from <code>/logs/&lt;proj&gt;/a.jsonl:2 (uuid-2)</code>');
  expect(page).toContain('from <code>/logs/&lt;proj&gt;/a.jsonl:3 (toolu_3)</code>');
  // Three events carry a source; the model's answer (a harness's own event here) shows none.
  expect(page.match(/event__source/g)?.length).toBe(3);
});
