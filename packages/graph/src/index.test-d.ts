// Type tests of the main entry: the signatures a harness author relies on (README, docs/*.md).
// Checked by the package's typecheck (tsc --noEmit); a wrong type fails it.

import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { expectTypeOf } from 'vitest';
import {
  contentHash,
  createGraphServer,
  type GraphServerOptions,
  type GraphStore,
  type GraphStoreOptions,
  type JsonValue,
  openGraphStore,
} from './index.js';

expectTypeOf(openGraphStore).parameters.toEqualTypeOf<[options: GraphStoreOptions]>();
expectTypeOf(openGraphStore).returns.resolves.toEqualTypeOf<GraphStore>();
expectTypeOf(createGraphServer).parameters.toEqualTypeOf<[options: GraphServerOptions]>();
expectTypeOf(createGraphServer).returns.toEqualTypeOf<McpServer>();
expectTypeOf(contentHash).parameters.toEqualTypeOf<[value: JsonValue]>();
expectTypeOf(contentHash).returns.toEqualTypeOf<string>();
