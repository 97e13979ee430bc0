// Game sounds synthesised with Web Audio (no sound file to ship): moves,
// captures, checks, low time and the end of the game. Off until the user turns
// them on (header or settings); the choice is remembered with the settings.

import { setSetting, settings } from './settings.js';

let ctx: AudioContext | null = null;

export function soundOn(): boolean {
  return settings().sound;
}

export function setSound(on: boolean): void {
  setSetting('sound', on);
  if (on) play('move');
}

export type Kind = 'move' | 'capture' | 'check' | 'lowtime' | 'end';

/** The sound of a move from its SAN (Avalanche: the first part's capture counts). */
export function moveSound(san: string): Kind {
  if (/[+#]$/.test(san)) return 'check';
  return san.includes('x') ? 'capture' : 'move';
}

/** For the tests: the sounds played on this page, in order. */
export const played: Kind[] = [];

const TONES: Record<Kind, [number, number, number][]> = {
  // [frequency Hz, start s, duration s]
  move: [[520, 0, 0.06]],
  capture: [
    [380, 0, 0.05],
    [300, 0.04, 0.07],
  ],
  check: [
    [660, 0, 0.07],
    [880, 0.08, 0.09],
  ],
  lowtime: [
    [990, 0, 0.05],
    [990, 0.12, 0.05],
  ],
  end: [
    [523, 0, 0.12],
    [659, 0.12, 0.12],
    [784, 0.24, 0.2],
  ],
};

export function play(kind: Kind): void {
  if (!soundOn()) return;
  played.push(kind);
  if (played.length > 100) played.shift();
  if (typeof AudioContext === 'undefined') return;
  try {
    ctx ??= new AudioContext();
    if (ctx.state === 'suspended') void ctx.resume();
    const now = ctx.currentTime;
    for (const [f, start, dur] of TONES[kind]) {
      const osc = ctx.createOscillator();
      const gain = ctx.createGain();
      osc.type = 'triangle';
      osc.frequency.value = f;
      gain.gain.setValueAtTime(0.0001, now + start);
      gain.gain.exponentialRampToValueAtTime(0.25, now + start + 0.01);
      gain.gain.exponentialRampToValueAtTime(0.0001, now + start + dur);
      osc.connect(gain).connect(ctx.destination);
      osc.start(now + start);
      osc.stop(now + start + dur + 0.02);
    }
  } catch {
    /* no audio: silent */
  }
}
