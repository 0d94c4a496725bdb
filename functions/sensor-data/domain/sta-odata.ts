import { Parser } from '@odata/parser/lib/parser';
import { STA_DEFAULT_TOP, STA_MAX_TOP, type StaQuery } from '../../../shared/contracts/sensor-data-sta';
import { badRequest, notImplemented } from './sta-errors';
import { type Geometry, GeometryError, readWkt } from './sta-geo';

/**
 * The OData side of the SensorThings service: the query options parsed by @odata/parser (a maintained OData v4 ABNF
 * parser) into the small expression tree the service evaluates. SensorThings writes a few things OData's grammar does
 * not (docs/decisions/071-odata-parser.md), so a lexical pass first maps them onto OData the parser reads: `@iot.id`
 * becomes `id`; a `geography'…'`/`geometry'…'` literal (SensorThings writes its WKT without OData's `SRID=…;`, and the
 * parser reads only some WKT) is read here and handed over as a parameter alias; an `st_*` function, which OData does
 * not name, is parsed as `geo.intersects` (the same shape, two geometries) and told apart by where it stands; an
 * exponent without a fraction (`2e3`) gets one (`2.0e3`).
 */

/** An instant, kept apart from numbers so that `year()` and comparisons with date literals know it is a time. */
export class Instant {
  constructor(readonly ms: number) {}
}

/** A duration literal (`duration'P1D'`), in milliseconds. */
export class Duration {
  constructor(readonly ms: number) {}
}

export type Value =
  | string
  | number
  | boolean
  | null
  | Instant
  | Duration
  | Geometry
  | Record<string, unknown>
  | undefined;

export type BinaryOp = 'eq' | 'ne' | 'gt' | 'ge' | 'lt' | 'le' | 'and' | 'or' | 'add' | 'sub' | 'mul' | 'div' | 'mod';

export type Expr =
  | { kind: 'literal'; value: Value }
  | { kind: 'path'; path: string[] }
  | { kind: 'binary'; op: BinaryOp; left: Expr; right: Expr }
  | { kind: 'not'; expr: Expr }
  | { kind: 'negate'; expr: Expr }
  | { kind: 'call'; fn: string; args: Expr[] };

export interface OrderBy {
  expr: Expr;
  desc: boolean;
}

/** One `$expand` item: the navigation property and its own options. */
export interface Expand {
  name: string;
  options: QueryOptions;
}

export interface QueryOptions {
  filter?: Expr;
  orderBy: OrderBy[];
  top?: number;
  skip: number;
  count: boolean;
  /** Property paths, `undefined` for all. */
  select?: string[][];
  expand: Expand[];
}

/** `$expand` nests at most this deep (`Things?$expand=Datastreams($expand=Observations)` is two). */
export const MAX_EXPAND_DEPTH = 3;

/** The functions of OGC 18-088 Table 23 besides OData's own: parsed as geo.intersects, evaluated by their name. */
const SPATIAL = [
  'st_equals',
  'st_disjoint',
  'st_touches',
  'st_within',
  'st_overlaps',
  'st_crosses',
  'st_intersects',
  'st_contains',
] as const;

/** What the lexical pass made of the text: the text the parser reads, its geometries, and where each st_* call stands. */
interface Prepared {
  text: string;
  geometries: Map<string, Geometry>;
  spatial: Map<number, string>;
}

/**
 * The lexical pass (see above), run over one option's text outside string literals. `start` is where the text will
 * stand in what the parser reads (after `$expand=`), so the st_* positions match the parser's tokens.
 */
const prepare = (source: string, target: string, geometries: Map<string, Geometry>, start = 0): Prepared => {
  let out = '';
  const spatial = new Map<number, string>();
  let i = 0;
  while (i < source.length) {
    const rest = source.slice(i);
    const quoted = /^(geography|geometry)'((?:[^']|'')*)'/i.exec(rest);
    if (quoted && !/[\w.]$/.test(out)) {
      let geometry: Geometry;
      try {
        geometry = readWkt(quoted[2]!.replaceAll("''", "'"));
      } catch (error) {
        throw badRequest(`${target}: ${error instanceof GeometryError ? error.message : String(error)}`, target);
      }
      const alias = `geo${geometries.size}`;
      geometries.set(alias, geometry);
      out += `@${alias}`;
      i += quoted[0].length;
      continue;
    }
    if (source[i] === "'") {
      const literal = /^'(?:[^']|'')*'/.exec(rest);
      if (!literal) throw badRequest(`${target}: a string is not closed (a quote is missing)`, target);
      out += literal[0];
      i += literal[0].length;
      continue;
    }
    const word = /^[A-Za-z_@][\w.@]*/.exec(rest);
    if (word && !/[\w.]$/.test(out)) {
      const name = word[0];
      const call = source[i + name.length] === '(';
      if (name === '@iot.id') {
        out += 'id';
      } else if (call && (SPATIAL as readonly string[]).includes(name.toLowerCase())) {
        spatial.set(start + out.length, name.toLowerCase());
        out += 'geo.intersects';
      } else if (call && name.toLowerCase() === 'st_relate') {
        throw notImplemented(`${target}: st_relate is not supported`, target);
      } else {
        out += name;
      }
      i += name.length;
      continue;
    }
    const exponent = /^\d+[eE][+-]?\d+/.exec(rest);
    if (exponent && !/[\w.]$/.test(out)) {
      out += exponent[0].replace(/[eE]/, '.0e');
      i += exponent[0].length;
      continue;
    }
    out += source[i];
    i += 1;
  }
  return { text: out, geometries, spatial };
};

// biome-ignore lint/suspicious/noExplicitAny: the parser's tokens are untyped trees
type Token = { type: string; value: any; raw: string; position: number; next: number };

const BINARY: Record<string, BinaryOp> = {
  EqualsExpression: 'eq',
  NotEqualsExpression: 'ne',
  GreaterThanExpression: 'gt',
  GreaterOrEqualsExpression: 'ge',
  LesserThanExpression: 'lt',
  LesserOrEqualsExpression: 'le',
  AndExpression: 'and',
  OrExpression: 'or',
  AddExpression: 'add',
  SubExpression: 'sub',
  MulExpression: 'mul',
  DivExpression: 'div',
  ModExpression: 'mod',
};

// Made on first use: a bundle that imports this module without parsing (the worker) carries no parser.
let made: Parser | undefined;
const parser = () => {
  made ??= new Parser();
  return made;
};

/** Where the parser stopped, as a person reads it. */
const syntaxError = (target: string, text: string, error: unknown) => {
  const at = /at (\d+)/.exec(error instanceof Error ? error.message : '')?.[1];
  const near = at === undefined ? '' : ` near "${text.slice(Math.max(0, Number(at) - 10), Number(at) + 10)}"`;
  return badRequest(`${target}: syntax error${near}`, target);
};

/** ISO 8601 duration (`P1DT2H`, OData's duration literal) in ms; months and years are not fixed lengths. */
const durationMs = (text: string): number | undefined => {
  const m = /^(-)?P(?:(\d+(?:\.\d+)?)D)?(?:T(?:(\d+(?:\.\d+)?)H)?(?:(\d+(?:\.\d+)?)M)?(?:(\d+(?:\.\d+)?)S)?)?$/.exec(
    text,
  );
  if (!m || text === 'P' || text.endsWith('T')) return undefined;
  const [, sign, d, h, min, s] = m;
  const ms = (Number(d ?? 0) * 86_400 + Number(h ?? 0) * 3_600 + Number(min ?? 0) * 60 + Number(s ?? 0)) * 1_000;
  return sign ? -ms : ms;
};

const literalOf = (token: Token, target: string): Value => {
  const raw = token.raw;
  switch (token.value) {
    case 'null':
      return null;
    case 'Edm.Boolean':
      return raw.toLowerCase() === 'true';
    case 'Edm.String':
      return raw.slice(1, -1).replaceAll("''", "'");
    case 'Edm.SByte':
    case 'Edm.Byte':
    case 'Edm.Int16':
    case 'Edm.Int32':
    case 'Edm.Int64':
    case 'Edm.Decimal':
    case 'Edm.Double':
    case 'Edm.Single':
      return Number(raw);
    case 'Edm.DateTimeOffset': {
      const ms = Date.parse(raw);
      if (Number.isNaN(ms)) throw badRequest(`${target}: not a time: ${raw}`, target);
      return new Instant(ms);
    }
    case 'Edm.Date':
      return new Instant(Date.parse(`${raw}T00:00:00Z`));
    case 'Edm.Duration': {
      const ms = durationMs(raw.replace(/^duration'|'$/gi, ''));
      if (ms === undefined)
        throw badRequest(`${target}: not a duration of days, hours, minutes and seconds: ${raw}`, target);
      return new Duration(ms);
    }
    case 'Edm.Guid':
      return raw;
    default:
      throw notImplemented(`${target}: literals of type ${String(token.value)} are not supported`, target);
  }
};

/** The parser's tree as the service's expression tree. */
const toExpr = (token: Token, prepared: Prepared, target: string): Expr => {
  const op = BINARY[token.type];
  if (op) {
    return {
      kind: 'binary',
      op,
      left: toExpr(token.value.left, prepared, target),
      right: toExpr(token.value.right, prepared, target),
    };
  }
  switch (token.type) {
    case 'CommonExpression':
    case 'ParenExpression':
    case 'BoolParenExpression':
      return toExpr(token.value, prepared, target);
    case 'NotExpression':
      return { kind: 'not', expr: toExpr(token.value, prepared, target) };
    case 'NegateExpression':
      return { kind: 'negate', expr: toExpr(token.value, prepared, target) };
    case 'MethodCallExpression': {
      const fn = prepared.spatial.get(token.position) ?? String(token.value.method);
      return {
        kind: 'call',
        fn,
        args: ((token.value.parameters ?? []) as Token[]).map((arg) => toExpr(arg, prepared, target)),
      };
    }
    case 'FirstMemberExpression':
    case 'MemberExpression':
    case 'PropertyPathExpression': {
      if (/\/(any|all)\(/.test(token.raw) || Array.isArray(token.value)) {
        throw notImplemented(`${target}: lambda operators (any, all) are not supported`, target);
      }
      return { kind: 'path', path: token.raw.split('/') };
    }
    case 'Literal':
      return { kind: 'literal', value: literalOf(token, target) };
    case 'ParameterAlias': {
      const geometry = prepared.geometries.get(String(token.value.name));
      if (!geometry) throw badRequest(`${target}: parameter aliases are not supported (${token.raw})`, target);
      return { kind: 'literal', value: geometry };
    }
    default:
      throw notImplemented(`${target}: ${token.type} is not supported`, target);
  }
};

const parseFilter = (text: string, geometries: Map<string, Geometry>, target = '$filter'): Expr => {
  const prepared = prepare(text, target, geometries);
  let token: Token;
  try {
    token = parser().filter(prepared.text) as unknown as Token;
  } catch (error) {
    throw syntaxError(target, prepared.text, error);
  }
  return toExpr(token, prepared, target);
};

/** One option parsed in OData's query grammar (`$orderby=…`), its token. */
const parseOption = (
  name: string,
  text: string,
  geometries: Map<string, Geometry>,
): { token: Token; prepared: Prepared } => {
  const prefix = `${name}=`;
  const prepared = prepare(text, name, geometries, prefix.length);
  let token: Token;
  try {
    token = parser().query(`${prefix}${prepared.text}`) as unknown as Token;
  } catch (error) {
    throw syntaxError(name, prepared.text, error);
  }
  const option = (token.value.options as Token[])[0];
  if (!option || token.value.options.length !== 1) throw badRequest(`${name}: syntax error`, name);
  return { token: option, prepared };
};

const wholeNumber = (name: string, text: string, max?: number): number => {
  if (!/^\d{1,9}$/.test(text.trim()))
    throw badRequest(`${name} must be a whole number of 0 or more, not "${text}"`, name);
  const value = Number(text.trim());
  if (max !== undefined && value > max) throw badRequest(`${name} is at most ${max}`, name);
  return value;
};

const countOf = (text: string, name = '$count'): boolean => {
  if (text === 'true') return true;
  if (text === 'false') return false;
  throw badRequest(`${name} must be true or false, not "${text}"`, name);
};

const orderByOf = (items: Token[], prepared: Prepared): OrderBy[] =>
  items.map((item) => ({
    expr: toExpr(item.value.expr, prepared, '$orderby'),
    desc: item.value.direction === -1,
  }));

const selectOf = (items: Token[]): string[][] =>
  items.map((item) => {
    const raw = String(item.raw);
    if (raw === '*') return ['*'];
    return raw.split('/');
  });

/** The options inside one `$expand` item (`Datastreams($top=1;$orderby=…)`), as the parser read them. */
const expandOptions = (tokens: Token[], prepared: Prepared, depth: number): QueryOptions => {
  const options: QueryOptions = { orderBy: [], skip: 0, count: false, expand: [] };
  for (const option of tokens) {
    switch (option.type) {
      case 'Filter':
        options.filter = toExpr(option.value, prepared, '$expand');
        break;
      case 'OrderBy':
        options.orderBy = orderByOf(option.value.items, prepared);
        break;
      case 'Top':
        options.top = wholeNumber('$top', option.value.raw, STA_MAX_TOP);
        break;
      case 'Skip':
        options.skip = wholeNumber('$skip', option.value.raw);
        break;
      case 'InlineCount':
        options.count = countOf(option.value.raw);
        break;
      case 'Select':
        options.select = selectOf(option.value.items);
        break;
      case 'Expand':
        options.expand = expandItems(option.value.items, prepared, depth + 1);
        break;
      default:
        throw notImplemented(`$expand: the option ${option.raw} is not supported`, '$expand');
    }
  }
  return options;
};

const expandItems = (items: Token[], prepared: Prepared, depth: number): Expand[] =>
  items.map((item) => {
    const segments = (item.value.path.value as Token[]).map((segment) => String(segment.value.name));
    if (depth + segments.length - 1 > MAX_EXPAND_DEPTH) {
      throw badRequest(`$expand nests at most ${MAX_EXPAND_DEPTH} levels deep`, '$expand');
    }
    const inner = expandOptions(
      (item.value.options as Token[] | undefined) ?? [],
      prepared,
      depth + segments.length - 1,
    );
    // `Datastreams/Observations` expands Datastreams, and inside each its Observations.
    return segments.reduceRight<Expand | undefined>(
      (nested, name) => ({
        name,
        options: nested ? { orderBy: [], skip: 0, count: false, expand: [nested] } : inner,
      }),
      undefined,
    )!;
  });

/**
 * The system query options of one request (OGC 18-088 §9.3), parsed. `$top` defaults to 100 and may be at most
 * 10,000; `$expand` nests at most three levels. A syntax error, a value out of range or a nesting too deep is a 400
 * naming the option; a construct the service does not implement (a lambda, `st_relate`) a 501.
 */
export const parseQueryOptions = (query: StaQuery): QueryOptions => {
  const geometries = new Map<string, Geometry>();
  const options: QueryOptions = { orderBy: [], skip: 0, count: false, expand: [] };
  if (query.$filter !== undefined) options.filter = parseFilter(query.$filter, geometries);
  if (query.$orderby !== undefined) {
    const { token, prepared } = parseOption('$orderby', query.$orderby, geometries);
    options.orderBy = orderByOf(token.value.items, prepared);
  }
  if (query.$top !== undefined) options.top = wholeNumber('$top', query.$top, STA_MAX_TOP);
  if (query.$skip !== undefined) options.skip = wholeNumber('$skip', query.$skip);
  if (query.$count !== undefined) options.count = countOf(query.$count);
  if (query.$select !== undefined) {
    const { token } = parseOption('$select', query.$select, geometries);
    options.select = selectOf(token.value.items);
  }
  if (query.$expand !== undefined) {
    const { token, prepared } = parseOption('$expand', query.$expand, geometries);
    options.expand = expandItems(token.value.items, prepared, 1);
  }
  if (query.$resultFormat !== undefined) {
    throw notImplemented('$resultFormat (the data array extension) is not supported', '$resultFormat');
  }
  return options;
};

/** The page size a collection answers with. */
export const topOf = (options: QueryOptions): number => options.top ?? STA_DEFAULT_TOP;
