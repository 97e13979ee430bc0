// The board's resize handle (desktop): dragging the corner sets the board
// size as a fraction of the largest that fits, remembered in the settings.

import { el } from '../dom.js';
import { t } from '../i18n.js';
import { applyTheme, setSetting, settings } from '../settings.js';

export function attachResizeHandle(host: HTMLElement, redraw: () => void): void {
  const handle = el('div', { class: 'resize-handle', role: 'slider', tabindex: '0', 'aria-label': t('game.resize') });
  const sync = () => {
    const v = Math.round(settings().boardScale * 100);
    handle.setAttribute('aria-valuemin', '50');
    handle.setAttribute('aria-valuemax', '100');
    handle.setAttribute('aria-valuenow', String(v));
  };
  sync();
  const setScale = (v: number, save: boolean) => {
    const s = Math.min(1, Math.max(0.5, v));
    document.documentElement.style.setProperty('--board-scale', String(s));
    if (save) setSetting('boardScale', s);
    sync();
    redraw();
  };
  handle.addEventListener('pointerdown', e => {
    e.preventDefault();
    handle.setPointerCapture(e.pointerId);
    const start = { x: e.clientX, y: e.clientY, scale: settings().boardScale, size: host.getBoundingClientRect().width };
    let last = start.scale;
    const move = (ev: PointerEvent) => {
      const d = Math.max(ev.clientX - start.x, ev.clientY - start.y);
      // the size that fits at scale 1, then the scale that gives the dragged size
      const full = start.size / start.scale;
      last = (start.size + d) / full;
      setScale(last, false);
    };
    const up = () => {
      handle.removeEventListener('pointermove', move);
      handle.removeEventListener('pointerup', up);
      handle.removeEventListener('pointercancel', up);
      setScale(last, true);
      applyTheme();
    };
    handle.addEventListener('pointermove', move);
    handle.addEventListener('pointerup', up);
    handle.addEventListener('pointercancel', up);
  });
  handle.addEventListener('keydown', e => {
    const step = e.key === 'ArrowUp' || e.key === 'ArrowRight' ? 0.05 : e.key === 'ArrowDown' || e.key === 'ArrowLeft' ? -0.05 : 0;
    if (!step) return;
    e.preventDefault();
    e.stopPropagation();
    setScale(settings().boardScale + step, true);
  });
  host.appendChild(handle);
}
