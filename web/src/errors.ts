// Server errors in the user's language: by `reason` (a stable snake_case key
// from servers that send one), then by `code`, else a generic sentence with
// the server's words as a detail (never the raw English message alone).

import { ApiError, ServerError } from './api.js';
import { Key, dictionaries, lang, t } from './i18n.js';

function known(key: string): key is Key {
  return key in dictionaries[lang()];
}

const DETAILED = new Set(['bad_request', 'bad_json', 'bad_message', 'conflict', 'not_allowed', 'internal']);

/** The text for an error: an ApiError, a WebSocket `error` message, or anything thrown. */
export function errorText(e: unknown): string {
  if (e instanceof TypeError) return t('error.network');
  const err: ServerError = e instanceof ApiError ? e : e && typeof e === 'object' ? (e as ServerError) : {};
  const reason = typeof err.reason === 'string' ? err.reason : '';
  const code = typeof err.code === 'string' ? err.code : '';
  if (reason && known(`err.${reason}`)) return t(`err.${reason}` as Key);
  const message = typeof err.message === 'string' ? err.message : '';
  if (code && known(`error.${code}`)) {
    const text = t(`error.${code}` as Key);
    // a refusal whose reason this client does not know: the server's words as a detail
    return DETAILED.has(code) && message ? `${text.replace(/\.$/, '')} (${message}).` : text;
  }
  const detail = [reason || code, message].filter(Boolean).join(': ');
  return t('error.generic', { detail: detail || '?' });
}
