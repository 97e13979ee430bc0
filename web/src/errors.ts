// Server errors in the user's language: by `reason` (a stable snake_case key
// from servers that send one), then by `code`, else a generic sentence with
// the server's words as a detail (never the raw English message alone).

import { ApiError, ServerError } from './api.js';
import { Key, dictionaries, lang, t } from './i18n.js';

function known(key: string): key is Key {
  return key in dictionaries[lang()];
}

const DETAILED = new Set(['bad_request', 'bad_json', 'bad_message', 'conflict', 'not_allowed', 'internal']);

/**
 * What a FEN, stipulation or PGN error says is wrong, in the user's language:
 * its `problem` key and parameters (docs/API.md, "Parameters of an error"); ''
 * when the error has none this client knows.
 */
export function problemText(params: Record<string, unknown> | undefined): string {
  const problem = params?.problem;
  if (typeof problem !== 'string' || !known(`why.${problem}`)) return '';
  const values: Record<string, string | number> = {};
  for (const [k, v] of Object.entries(params ?? {})) if (typeof v === 'string' || typeof v === 'number') values[k] = v;
  const color = values.color;
  if (typeof color === 'string' && known(`color.${color}`)) values.color = t(`color.${color}` as Key);
  return t(`why.${problem}` as Key, values);
}

/** The text for an error: an ApiError, a WebSocket `error` message, or anything thrown. */
export function errorText(e: unknown): string {
  if (e instanceof TypeError) return t('error.network');
  const err: ServerError = e instanceof ApiError ? e : e && typeof e === 'object' ? (e as ServerError) : {};
  const reason = typeof err.reason === 'string' ? err.reason : '';
  const code = typeof err.code === 'string' ? err.code : '';
  const message = typeof err.message === 'string' ? err.message : '';
  if (reason && known(`err.${reason}`)) {
    // the texts may name the field, the values of `params` and the server's detail
    const params: Record<string, string | number> = { field: err.field ?? '', detail: message };
    for (const [k, v] of Object.entries(err.params ?? {})) if (typeof v === 'string' || typeof v === 'number') params[k] = v;
    // a FEN, stipulation or PGN error says what is wrong as a `problem` key
    // with its parameters: the detail in the user's language, not the server's English
    const detail = problemText(params);
    if (detail) params.detail = detail;
    return t(`err.${reason}` as Key, params);
  }
  if (code && known(`error.${code}`)) {
    const text = t(`error.${code}` as Key);
    // a refusal whose reason this client does not know: the server's words as a detail
    return DETAILED.has(code) && message ? `${text.replace(/\.$/, '')} (${message}).` : text;
  }
  const detail = [reason || code, message].filter(Boolean).join(': ');
  return t('error.generic', { detail: detail || '?' });
}
