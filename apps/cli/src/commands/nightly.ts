import type { Command, CommandGroup } from '../command.js';
import { runDistill } from './distill.js';

const nightly: Command = {
  path: 'nightly',
  summary: 'the nightly pass: reflect, distill, then score predictions, never two at once',
  help: [
    'Usage: mecha nightly [--dry-run] [--limit N] [--server NAME] [--json]',
    '',
    'The pass a timer runs: reflects on your corrections not yet reflected on (as mecha reflect),',
    'distils every finished session not yet distilled (as mecha distill), then checks the text',
    "appraisals' predictions against what you did, into",
    "appraisals/scores.jsonl. It holds the home's nightly lock: a second pass started while one",
    'runs does nothing and exits 1. Idempotent: a pass over an unchanged home reads the ledger.',
    '',
    'Run it from cron (every night at 03:17):',
    '  17 3 * * *  mecha nightly --home ~/.mecha >> ~/.mecha/nightly.log 2>&1',
    '',
    'or a systemd user timer (~/.config/systemd/user/mecha-nightly.{service,timer}), with',
    "ExecStart naming the mecha that 'command -v mecha' prints (npm install -g puts it in",
    "'npm prefix -g'/bin; a timer does not read your shell's PATH):",
    '  [Service]  Type=oneshot',
    '             ExecStart=/path/to/mecha nightly --home %h/.mecha',
    '  [Timer]    OnCalendar=*-*-* 03:17:00',
    '             Persistent=true',
    '  systemctl --user enable --now mecha-nightly.timer',
    '',
    'A harness can also distil each session as it closes: its session_end hook runs',
    '  mecha distill --session SESSION_ID',
    '',
    'Options:',
    '  --dry-run       say what would be distilled: no model, no server, nothing written',
    '  --limit N       look at no more than N sessions, oldest first',
    "  --server NAME   the [[mcp]] server holding the graph (default 'graph')",
    '  --json          the report as JSON',
    '  --home DIR      the mecha home',
    '',
  ].join('\n'),
  options: {
    'dry-run': { type: 'boolean' },
    limit: { type: 'string' },
    server: { type: 'string' },
    json: { type: 'boolean' },
  },
  takesNoArguments: true,
  run(input) {
    return runDistill(this.path, input, 'nightly');
  },
};

/** `mecha nightly`: @mecha/distill's `nightly`, with the model `mecha distill` loads. */
export const nightlyGroup: CommandGroup = {
  name: 'nightly',
  summary: nightly.summary,
  fallback: nightly,
  commands: [],
};
