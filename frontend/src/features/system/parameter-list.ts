import type { z } from 'zod';
import type { Parameter, ParameterValue } from '../../../../shared/contracts/system';
import { UI_MESSAGES } from '../../lib/ui-messages';

export type JsonValue = z.infer<typeof ParameterValue>;

export type ParsedValue = { ok: true; value: JsonValue } | { ok: false; error: string };

/** Reads the JSON text typed into the value field; the error is shown before anything is sent. */
export const parseValueText = (text: string): ParsedValue => {
  if (!text.trim()) return { ok: false, error: UI_MESSAGES.parameterValueEmpty };
  try {
    return { ok: true, value: JSON.parse(text) as JsonValue };
  } catch (error) {
    return { ok: false, error: UI_MESSAGES.parameterValueNotJson(error instanceof Error ? error.message : '') };
  }
};

/** One line of JSON: what the table shows and what the edit field starts with. */
export const formatValue = (value: JsonValue): string => JSON.stringify(value);

/**
 * Adds a further page in the server's order (a Scan, so not sorted). A parameter already shown, e.g.
 * one just created here, keeps its place and takes the newer copy.
 */
export const appendPage = (shown: readonly Parameter[], page: readonly Parameter[]): Parameter[] => {
  const fresh = new Map(page.map((p) => [p.id, p]));
  const merged = shown.map((p) => fresh.get(p.id) ?? p);
  const known = new Set(shown.map((p) => p.id));
  return [...merged, ...page.filter((p) => !known.has(p.id))];
};

/** A saved parameter replaces its row; a new one goes first, where the user who created it looks. */
export const upsertParameter = (shown: readonly Parameter[], saved: Parameter): Parameter[] =>
  shown.some((p) => p.id === saved.id) ? shown.map((p) => (p.id === saved.id ? saved : p)) : [saved, ...shown];

export const removeParameter = (shown: readonly Parameter[], id: string): Parameter[] =>
  shown.filter((p) => p.id !== id);
