import type * as z from 'zod';
import type { ParameterValue } from '../../../../shared/contracts/system';
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
