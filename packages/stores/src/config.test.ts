import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as E from 'fp-ts/lib/Either.js';
import { describe, expect, it } from 'vitest';
import { tempDir } from './__fixtures__/temp-dir.js';
import { defaultConfig, parseConfig, readConfig } from './config.js';

function issues(text: string) {
  const parsed = parseConfig(text);
  return E.isLeft(parsed) ? parsed.left : [];
}

describe('parseConfig', () => {
  it('fills the shipped defaults of every [agent] switch', () => {
    expect(defaultConfig.agent).toEqual({
      situation_brief: false,
      past_appraisals: false,
      success_examples: false,
      contrast_evidence: false,
      sensors_in_brief: true,
      appraisals_in_brief: true,
      step_escalation: false,
      timezone: 'UTC',
    });
    expect(parseConfig('')).toEqual(E.right(defaultConfig));
  });

  it('reads [agent], [[mcp]] with [mcp.capabilities], and [model]', () => {
    const parsed = parseConfig(`
[agent]
situation_brief = true
sensors_in_brief = false
timezone = "Europe/Berlin"

[[mcp]]
name = "graph"
command = "mecha-graph-mcp"
prefix_tools = false

[mcp.capabilities]
untrusted_input = true

[model]
path = "models/appraiser.gguf"

[probe]
replayer = "scripted:arms.jsonl"
`);
    expect(parsed).toEqual(
      E.right({
        agent: {
          ...defaultConfig.agent,
          situation_brief: true,
          sensors_in_brief: false,
          timezone: 'Europe/Berlin',
        },
        mcp: [
          {
            name: 'graph',
            command: 'mecha-graph-mcp',
            args: [],
            env: {},
            prefix_tools: false,
            capabilities: { untrusted_input: true },
          },
        ],
        model: { path: 'models/appraiser.gguf' },
        probe: { replayer: 'scripted:arms.jsonl' },
      }),
    );
  });

  it('refuses a [probe] replayer it cannot open', () => {
    expect(issues('[probe]\nreplayer = "gpt"\n')).toEqual([
      {
        key: 'probe.replayer',
        message: 'must be "local-model" or "scripted:PATH" (a JSON-lines script of arms)',
      },
    ]);
  });

  it('names the key of a value of the wrong type', () => {
    expect(issues('[agent]\nsituation_brief = "yes"\n')).toEqual([
      { key: 'agent.situation_brief', message: 'must be true or false, not a string' },
    ]);
  });

  it('names an unknown key rather than ignoring a typo', () => {
    expect(issues('[agent]\nsituation_breif = true\n')).toEqual([
      { key: 'agent.situation_breif', message: 'is not a key mecha knows' },
    ]);
  });

  it('refuses a time zone the machine does not know', () => {
    expect(issues('[agent]\ntimezone = "Mars/Olympus"\n')[0]?.key).toBe('agent.timezone');
  });

  it('refuses an override that would trust a server more', () => {
    expect(
      issues(
        '[[mcp]]\nname = "graph"\ncommand = "g"\n[mcp.capabilities]\nuntrusted_input = false\n',
      ),
    ).toEqual([
      {
        key: 'mcp[0].capabilities.untrusted_input',
        message: 'can only be true: an override may distrust a server further, never less',
      },
    ]);
  });

  it('refuses two servers with one name', () => {
    const text = '[[mcp]]\nname = "graph"\ncommand = "a"\n[[mcp]]\nname = "graph"\ncommand = "b"\n';
    expect(issues(text)[0]?.key).toBe('mcp[1].name');
  });

  it('says where TOML that does not parse goes wrong', () => {
    expect(issues('[agent\n')[0]?.message).toMatch(/is not valid TOML \(line 1/);
  });
});

describe('readConfig', () => {
  it('runs a home without config.toml on the defaults', () => {
    expect(readConfig(tempDir())).toEqual(E.right(defaultConfig));
  });

  it('reports a config.toml it cannot read, never a silent default', () => {
    const home = tempDir();
    mkdirSync(join(home, 'config.toml'));
    expect(E.isLeft(readConfig(home))).toBe(true);
    const other = tempDir();
    writeFileSync(join(other, 'config.toml'), Buffer.from([0x5b, 0xff, 0x5d]));
    expect(readConfig(other)).toEqual(
      E.left([{ key: '', message: 'config.toml is not valid UTF-8' }]),
    );
  });
});

describe('the [model] table', () => {
  it('takes threads, gpu_layers and context_size, and names a bad one', () => {
    const good = parseConfig(
      '[model]\npath = "m.gguf"\nthreads = 4\ngpu_layers = "auto"\ncontext_size = 4096\n',
    );
    expect(E.isRight(good) && good.right.model).toEqual({
      path: 'm.gguf',
      threads: 4,
      gpu_layers: 'auto',
      context_size: 4096,
    });
    const bad = parseConfig('[model]\nthreads = 0\ngpu_layers = "some"\ncontext_size = 12\n');
    expect(E.isLeft(bad) && bad.left.map((issue) => issue.key)).toEqual([
      'model.threads',
      'model.gpu_layers',
      'model.context_size',
    ]);
  });
});
