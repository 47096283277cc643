import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { rightOrThrow } from '@mecha/errors';
import { parseConfig } from '@mecha/stores';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { tempFolder } from './__fixtures__/graph-home.js';
import {
  defaultGraphServer,
  effectiveCapabilities,
  findMcpServer,
  mcpServerToml,
  missingServerMessage,
  writeDefaultGraphServer,
} from './graph-server.js';

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup();
});
const folder = () => {
  const made = tempFolder();
  cleanups.push(made.remove);
  return made.folder;
};

describe('the default graph server entry', () => {
  it('is mecha-graph-mcp with its own tool names and its read-back untrusted', () => {
    const toml = mcpServerToml(defaultGraphServer());
    expect(toml).toBe(
      '[[mcp]]\nname = "graph"\ncommand = "mecha-graph-mcp"\nprefix_tools = false\n\n[mcp.capabilities]\nuntrusted_input = true\n',
    );
    const parsed = parseConfig(toml);
    expect(parsed._tag).toBe('Right');
    if (parsed._tag === 'Right') expect(parsed.right.mcp).toEqual([defaultGraphServer()]);
  });

  it('renders any entry so that config.toml reads it back the same', () => {
    // Quotes, backslashes, controls, DEL and a C1 control: what a TOML basic string must escape.
    const unit = fc.constantFrom(
      'a',
      'Z',
      ' ',
      '\u0000',
      '\u001f',
      '\u007f',
      '\u0085',
      '"',
      '\\',
      '\n',
      '\t',
      'é',
      '😀',
    );
    const entry = fc.record({
      name: fc.stringMatching(/^[A-Za-z0-9][A-Za-z0-9_-]{0,20}$/),
      command: fc.string({ minLength: 1, maxLength: 20, unit }),
      args: fc.array(fc.string({ maxLength: 10, unit }), { maxLength: 3 }),
      env: fc.dictionary(fc.stringMatching(/^[A-Z_]{1,8}$/), fc.string({ maxLength: 10, unit }), {
        maxKeys: 2,
      }),
      prefix_tools: fc.boolean(),
      capabilities: fc.constantFrom({}, { untrusted_input: true as const }),
    });
    fc.assert(
      fc.property(entry, (server) => {
        const parsed = parseConfig(mcpServerToml(server));
        expect(parsed._tag).toBe('Right');
        if (parsed._tag === 'Right') expect(parsed.right.mcp).toEqual([server]);
      }),
    );
  });

  it('is added to a home without config, and not twice', () => {
    const home = folder();
    expect(writeDefaultGraphServer(home).state).toBe('added');
    expect(writeDefaultGraphServer(home).state).toBe('present');
    expect(readFileSync(join(home, 'config.toml'), 'utf8')).toBe(
      mcpServerToml(defaultGraphServer()),
    );
  });

  it('is appended after what a config already holds', () => {
    const home = folder();
    writeFileSync(
      join(home, 'config.toml'),
      '[agent]\ntimezone = "Europe/Berlin"\n\n[[mcp]]\nname = "mail"\ncommand = "mail-mcp"\n',
    );
    expect(writeDefaultGraphServer(home).state).toBe('added');
    const parsed = parseConfig(readFileSync(join(home, 'config.toml'), 'utf8'));
    expect(parsed._tag === 'Right' && parsed.right.mcp.map((server) => server.name)).toEqual([
      'mail',
      'graph',
    ]);
  });

  it('leaves a config that does not parse untouched', () => {
    const home = folder();
    writeFileSync(join(home, 'config.toml'), '[agent\n');
    const result = writeDefaultGraphServer(home);
    expect(result.state).toBe('invalid');
    expect(readFileSync(join(home, 'config.toml'), 'utf8')).toBe('[agent\n');
  });
});

describe('findMcpServer', () => {
  it('says why distillation cannot run without the named server', () => {
    const config = rightOrThrow(parseConfig(''), 'the empty config');
    expect(findMcpServer(config, 'graph')).toEqual({
      _tag: 'Left',
      left: { kind: 'not_found', message: missingServerMessage('graph') },
    });
    expect(missingServerMessage('graph')).toBe(
      "no [[mcp]] server named 'graph' in config — distillation stages episodes through the knowledge graph server and cannot run without it",
    );
  });
});

describe('effectiveCapabilities', () => {
  it('only ever widens what is untrusted', () => {
    fc.assert(
      fc.property(fc.boolean(), fc.boolean(), (assumed, marked) => {
        const server = {
          ...defaultGraphServer(),
          capabilities: marked ? { untrusted_input: true as const } : {},
        };
        const effective = effectiveCapabilities(server, { untrusted_input: assumed });
        expect(effective.untrusted_input).toBe(assumed || marked);
        if (assumed) expect(effective.untrusted_input).toBe(true);
      }),
    );
  });

  it('refuses a config that tries to mark a server trusted', () => {
    const parsed = parseConfig(
      '[[mcp]]\nname = "graph"\ncommand = "x"\n[mcp.capabilities]\nuntrusted_input = false\n',
    );
    expect(parsed._tag).toBe('Left');
  });
});
