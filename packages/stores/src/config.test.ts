import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import * as E from 'fp-ts/lib/Either.js';
import { describe, expect, it } from 'vitest';
import { tempDir } from './__fixtures__/temp-dir.js';
import {
  type ConfigIssue,
  configIssueText,
  defaultConfig,
  parseConfig,
  readConfig,
} from './config.js';

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
      planning_guidance: false,
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
        line: 2,
      },
    ]);
  });

  it('names the key of a value of the wrong type', () => {
    expect(issues('[agent]\nsituation_brief = "yes"\n')).toEqual([
      { key: 'agent.situation_brief', message: 'must be true or false, not a string', line: 2 },
    ]);
  });

  it('names an unknown key rather than ignoring a typo', () => {
    expect(issues('[agent]\nsituation_breif = true\n')).toEqual([
      { key: 'agent.situation_breif', message: 'is not a key mecha knows', line: 2 },
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
        line: 5,
      },
    ]);
  });

  it('refuses two servers with one name', () => {
    const text = '[[mcp]]\nname = "graph"\ncommand = "a"\n[[mcp]]\nname = "graph"\ncommand = "b"\n';
    expect(issues(text)[0]?.key).toBe('mcp[1].name');
  });

  it('reads a url server with the name of the variable its token is in', () => {
    const parsed = parseConfig(
      '[[mcp]]\nname = "graph"\nurl = "https://graph.example.org/mcp"\ntoken_env = "MECHA_GRAPH_TOKEN"\n',
    );
    expect(E.isRight(parsed) && parsed.right.mcp[0]).toMatchObject({
      name: 'graph',
      url: 'https://graph.example.org/mcp',
      token_env: 'MECHA_GRAPH_TOKEN',
    });
  });

  it('refuses a token written into the file, and says where to put it instead', () => {
    const found = issues(
      '[agent]\ntimezone = "UTC"\n\n[[mcp]]\nname = "graph"\nurl = "http://127.0.0.1:7411/mcp"\ntoken = "s3cret"\n',
    );
    expect(found).toHaveLength(1);
    expect(found[0]).toMatchObject({ key: 'mcp[0].token', line: 7 });
    expect(found[0]?.message).toContain('token_env = "MECHA_GRAPH_TOKEN"');
    expect(found[0]?.message).toContain('must hold no secret');
    expect(JSON.stringify(found)).not.toContain('s3cret');
    const inUrl = issues('[[mcp]]\nname = "g"\nurl = "https://me:s3cret@graph.example.org/mcp"\n');
    expect(inUrl[0]).toMatchObject({ key: 'mcp[0].url', line: 3 });
    expect(inUrl[0]?.message).toContain('token_env');
    expect(JSON.stringify(inUrl)).not.toContain('s3cret');
    const inQuery = issues(
      '[[mcp]]\nname = "g"\nurl = "https://graph.example.org/mcp?access_token=x"\n',
    );
    expect(inQuery[0]?.key).toBe('mcp[0].url');
  });

  it('never echoes a secret it refuses, wherever in the entry it was written', () => {
    const secret = fc.stringMatching(/^[A-Za-z0-9]{12,40}$/).map((text) => `tok-${text}`);
    const place = fc.constantFrom(
      (value: string) => `url = "http://127.0.0.1:7411/mcp"\ntoken = "${value}"`,
      (value: string) => `url = "http://127.0.0.1:7411/mcp"\napi_key = "${value}"`,
      (value: string) => `url = "https://me:${value}@graph.example.org/mcp"`,
      (value: string) => `url = "https://graph.example.org/mcp?token=${value}"`,
    );
    fc.assert(
      fc.property(secret, place, (value, write) => {
        const found = issues(`[[mcp]]\nname = "graph"\n${write(value)}\n`);
        expect(found.length).toBeGreaterThan(0);
        expect(found.every((issue) => issue.message.includes('token_env'))).toBe(true);
        expect(JSON.stringify(found)).not.toContain(value);
      }),
    );
  });

  it('wants exactly one of command and url, and a URL that is one', () => {
    const neither = issues('[[mcp]]\nname = "graph"\n');
    expect(neither).toEqual([
      { key: 'mcp[0]', line: 1, message: expect.stringContaining('needs command') },
    ]);
    const both = issues(
      '[[mcp]]\nname = "graph"\ncommand = "g"\nurl = "http://127.0.0.1:7411/mcp"\n',
    );
    expect(both[0]?.message).toContain('has both command and url');
    const bad = issues('\n[[mcp]]\nname = "graph"\nurl = "127.0.0.1:7411"\n');
    expect(bad).toEqual([
      { key: 'mcp[0].url', line: 4, message: expect.stringContaining('is not a URL') },
    ]);
    expect(configIssueText(bad[0] as ConfigIssue)).toMatch(
      /^mcp\[0\]\.url \(line 4\) is not a URL: write the graph server's whole address/,
    );
    // A token pasted into the wrong key is never repeated back.
    const token = 'c0ffee1234abcdef';
    for (const [key, toml] of [
      ['url', `[[mcp]]\nname = "g"\nurl = "${token}"\n`],
      ['token_env', `[[mcp]]\nname = "g"\nurl = "http://h/mcp"\ntoken_env = "${token}"\n`],
    ]) {
      const pasted = issues(toml as string);
      expect(pasted[0]?.key).toBe(`mcp[0].${key}`);
      expect(configIssueText(pasted[0] as ConfigIssue)).not.toContain(token);
    }
    const lowerHex = issues(
      '[[mcp]]\nname = "g"\nurl = "http://h/mcp"\ntoken_env = "deadbeef0123"\n',
    );
    expect(lowerHex[0]?.message).toContain('not the token itself');
    expect(issues('[[mcp]]\nname = "g"\nurl = "ftp://h/mcp"\n')[0]?.message).toContain(
      'must be an http:// or https:// address',
    );
    expect(
      issues('[[mcp]]\nname = "g"\nurl = "http://h/mcp"\ntoken_env = "Bearer abc.def"\n')[0],
    ).toMatchObject({
      key: 'mcp[0].token_env',
      message: expect.stringContaining('not the token itself'),
    });
    expect(issues('[[mcp]]\nname = "g"\ncommand = "g"\ntoken_env = "T"\n')[0]?.key).toBe(
      'mcp[0].token_env',
    );
    expect(
      issues('[[mcp]]\nname = "g"\nurl = "http://h/mcp"\nargs = ["--role", "owner"]\n')[0]?.key,
    ).toBe('mcp[0].args');
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
