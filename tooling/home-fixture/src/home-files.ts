import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type Charter, stringifyCharter } from '@mecha/charter';
import { homeLayout } from '@mecha/stores';
import { hour } from './draw.js';

/** The owner's charter (`charter.toml`): three sensed lines and one plain one. */
export const charter: Charter = [
  {
    id: 'replies',
    text: 'Reply to people who are waiting on me',
    sensor: 'outbox_age',
    setpoint: 48 * hour,
  },
  {
    id: 'questions',
    text: 'Answer what mecha asks me the same day',
    sensor: 'question_latency',
    setpoint: 24 * hour,
  },
  {
    id: 'requests',
    text: 'Close front-door requests within three days',
    sensor: 'request_closure',
    setpoint: 72 * hour,
  },
  { id: 'evenings', text: 'Keep evenings free of work' },
];

const configToml = `# mecha configuration (generated)
[agent]
situation_brief = false
past_appraisals = false
success_examples = false
contrast_evidence = false
sensors_in_brief = true
appraisals_in_brief = true
planning_guidance = false
step_escalation = false
timezone = "Europe/Berlin"

[[mcp]]
name = "graph"
command = "mecha-graph-mcp"
prefix_tools = false

[mcp.capabilities]
untrusted_input = true

[model]
path = "models/appraiser.gguf"
`;

/**
 * Writes the charter, the config and the manifest (which lists `created`, the stores written
 * and the sessions folder, with the charter); returns the bytes written.
 */
export function writeHomeFiles(home: string, created: readonly string[]): number {
  const charterText = stringifyCharter(charter);
  writeFileSync(join(home, homeLayout.charter), charterText);
  writeFileSync(join(home, homeLayout.config), configToml);
  const manifest = `${JSON.stringify({ v: 1, created: [...created, homeLayout.charter].sort() })}\n`;
  writeFileSync(join(home, homeLayout.manifest), manifest);
  return (
    Buffer.byteLength(charterText) + Buffer.byteLength(configToml) + Buffer.byteLength(manifest)
  );
}
