// Sign-up, log-in and the account's own page (password change, log out
// everywhere, deletion). Passwords go only to the server, over the same
// origin; the session is an HttpOnly cookie the page never reads.

import { ApiError } from '../api.js';
import { retryWhileBusy } from '../busy-retry.js';
import { changePassword, currentUser, deleteAccount, logIn, logOut, refreshUser, signUp } from '../account-api.js';
import { el } from '../dom.js';
import { errorText } from '../errors.js';
import { t } from '../i18n.js';
import { navigate } from '../router.js';

/** Where to go after logging in: a path of this site only (never another origin). */
export function safeNext(next: string | null): string {
  return next && next.startsWith('/') && !next.startsWith('//') && !next.startsWith('/\\') ? next : '/';
}

/** The message of a refused request, with the wait when the server gives one. */
export function refusalText(e: unknown): string {
  const text = errorText(e);
  const wait = e instanceof ApiError ? e.params?.retry_after : undefined;
  return typeof wait === 'number' && wait > 0 ? `${text} ${t('account.retryAfter', { s: Math.ceil(wait) })}` : text;
}

function input(name: string, type: string, autocomplete: string, extra: Record<string, string> = {}): HTMLInputElement {
  return el('input', { name, id: `account-${name}`, type, autocomplete, required: '', ...extra });
}

function field(label: string, control: HTMLInputElement, hint?: string): HTMLElement {
  const hintEl = hint ? el('span', { class: 'field-hint', id: `${control.id}-hint` }, hint) : null;
  if (hintEl) control.setAttribute('aria-describedby', hintEl.id);
  return el('label', { class: 'field', for: control.id }, el('span', { class: 'field-label' }, label), control, hintEl);
}

/** Shows an error in the form's message line and marks the field the server named. */
function showError(form: HTMLFormElement, msg: HTMLElement, e: unknown): void {
  msg.textContent = refusalText(e);
  for (const i of form.querySelectorAll('input')) i.removeAttribute('aria-invalid');
  const fieldName = e instanceof ApiError ? e.field : undefined;
  const bad = fieldName ? form.querySelector<HTMLInputElement>(`input[name="${CSS.escape(fieldName)}"]`) : null;
  if (bad) {
    bad.setAttribute('aria-invalid', 'true');
    bad.focus();
  }
}

function accountForm(title: string, id: string, fields: HTMLElement[], submitLabel: string, onSubmit: (msg: HTMLElement, form: HTMLFormElement) => Promise<void>): HTMLFormElement {
  const msg = el('p', { class: 'form-msg', role: 'alert', 'data-role': 'message' });
  const submit = el('button', { type: 'submit', class: 'btn primary' }, submitLabel);
  const form = el('form', { class: 'panel account-form', id, 'aria-labelledby': `${id}-title`, novalidate: '' }, el('h1', { id: `${id}-title` }, title), ...fields, msg, submit);
  form.addEventListener('submit', async ev => {
    ev.preventDefault();
    submit.disabled = true;
    msg.textContent = '';
    msg.classList.remove('ok');
    try {
      await onSubmit(msg, form);
    } catch (e) {
      showError(form, msg, e);
    } finally {
      submit.disabled = false;
    }
  });
  return form;
}

export function loginPage(root: HTMLElement, query: URLSearchParams): void {
  const name = input('username', 'text', 'username', { maxlength: '20' });
  const password = input('password', 'password', 'current-password');
  const form = accountForm(t('account.loginTitle'), 'login-form', [field(t('account.username'), name), field(t('account.password'), password)], t('account.login'), async msg => {
    await retryWhileBusy(() => logIn(name.value.trim(), password.value), s => (msg.textContent = t('account.busyRetrying', { s })));
    navigate(safeNext(query.get('next')));
  });
  root.append(
    el('div', { class: 'account-page' }, form, el('p', { class: 'account-switch' }, t('account.noAccount'), ' ', el('a', { href: '/signup', 'data-link': '' }, t('account.signup')))),
  );
  name.focus();
}

export function signupPage(root: HTMLElement): void {
  const name = input('username', 'text', 'username', { maxlength: '20', pattern: '[A-Za-z0-9_\\-]{3,20}' });
  const password = input('password', 'password', 'new-password', { minlength: '8' });
  const confirm = input('confirm', 'password', 'new-password');
  const form = accountForm(
    t('account.signupTitle'),
    'signup-form',
    [field(t('account.username'), name, t('account.usernameHint')), field(t('account.password'), password, t('account.passwordHint')), field(t('account.confirm'), confirm)],
    t('account.signup'),
    async msg => {
      if (password.value !== confirm.value) {
        msg.textContent = t('account.mismatch');
        confirm.setAttribute('aria-invalid', 'true');
        confirm.focus();
        return;
      }
      await retryWhileBusy(() => signUp(name.value.trim(), password.value), s => (msg.textContent = t('account.busyRetrying', { s })));
      navigate(`/@/${encodeURIComponent(name.value.trim())}`);
    },
  );
  root.append(
    el(
      'div',
      { class: 'account-page' },
      form,
      el('p', { class: 'hint' }, t('account.claimHint')),
      el('p', { class: 'account-switch' }, t('account.haveAccount'), ' ', el('a', { href: '/login', 'data-link': '' }, t('account.login'))),
    ),
  );
  name.focus();
}

export function accountPage(root: HTMLElement): void {
  const box = el('div', { class: 'account-page' });
  root.appendChild(box);
  const show = () => {
    box.replaceChildren();
    const me = currentUser();
    if (!me) {
      box.append(el('section', { class: 'panel' }, el('p', {}, t('account.notLoggedIn')), el('a', { href: '/login?next=/account', 'data-link': '', class: 'btn primary' }, t('account.login'))));
      return;
    }
    const oldPw = input('old_password', 'password', 'current-password');
    const newPw = input('new_password', 'password', 'new-password', { minlength: '8' });
    const pwForm = accountForm(t('account.changePassword'), 'password-form', [field(t('account.oldPassword'), oldPw), field(t('account.newPassword'), newPw, t('account.passwordHint'))], t('account.changePassword'), async msg => {
      await changePassword(oldPw.value, newPw.value);
      oldPw.value = newPw.value = '';
      msg.textContent = t('account.passwordChanged');
      msg.classList.add('ok');
    });
    const delPw = input('password', 'password', 'current-password');
    const delForm = accountForm(t('account.delete'), 'delete-form', [el('p', {}, t('account.deleteWarning')), field(t('account.password'), delPw)], t('account.deleteConfirm'), async () => {
      if (!window.confirm(t('account.deleteWarning'))) return;
      await deleteAccount(delPw.value);
      navigate('/');
    });
    delForm.querySelector('button[type=submit]')?.classList.replace('primary', 'danger');
    const sessions = el('section', { class: 'panel', 'aria-labelledby': 'sessions-title' }, el('h2', { id: 'sessions-title' }, t('account.sessions')));
    const smsg = el('p', { class: 'form-msg', role: 'alert' });
    const out = el('button', { type: 'button', class: 'btn', 'data-action': 'logout' }, t('account.logout'));
    const outAll = el('button', { type: 'button', class: 'btn', 'data-action': 'logout-everywhere' }, t('account.logoutEverywhere'));
    out.addEventListener('click', () => logOut().then(() => navigate('/'), e => (smsg.textContent = refusalText(e))));
    outAll.addEventListener('click', () => logOut(true).then(() => navigate('/'), e => (smsg.textContent = refusalText(e))));
    sessions.append(el('div', { class: 'actions' }, out, outAll), smsg);
    box.append(
      el('section', { class: 'panel' }, el('h1', {}, me.username), el('a', { href: `/@/${encodeURIComponent(me.username)}`, 'data-link': '' }, t('account.myProfile'))),
      pwForm,
      sessions,
      delForm,
    );
  };
  show();
  void refreshUser().then(show, () => undefined);
}
