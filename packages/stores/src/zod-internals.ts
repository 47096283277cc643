// What the compiler reads off a zod 4 schema: its definition and a few internal facts zod
// itself computes (`values` of a literal or enum, `optin`/`optout` of an object field).
export interface SchemaInternals {
  readonly def: Definition;
  readonly values?: ReadonlySet<unknown>;
  readonly optin?: string;
  readonly optout?: string;
}
export interface Definition {
  readonly type: string;
  readonly checks?: readonly { readonly _zod: { readonly def: CheckDefinition } }[];
  readonly check?: string;
  readonly format?: string;
  readonly pattern?: RegExp;
  readonly coerce?: boolean;
  readonly shape?: Readonly<Record<string, Schema>>;
  readonly catchall?: Schema;
  readonly innerType?: Schema;
  readonly element?: Schema;
  readonly options?: readonly Schema[];
  readonly discriminator?: string;
  readonly inclusive?: boolean;
  readonly keyType?: Schema;
  readonly valueType?: Schema;
  readonly mode?: string;
  readonly in?: Schema;
}
export interface CheckDefinition {
  readonly check: string;
  readonly format?: string;
  readonly pattern?: RegExp;
  readonly maximum?: number;
  readonly minimum?: number;
  readonly value?: unknown;
  readonly inclusive?: boolean;
}
export interface Schema {
  readonly _zod: SchemaInternals;
}
