// Move sounds synthesised with Web Audio (no sound file to ship). Off until
// the user turns them on in the header; the choice is remembered.

const KEY = 'echecs.sound';
let ctx: AudioContext | null = null;

export function soundOn(): boolean {
  try {
    return localStorage.getItem(KEY) === 'on';
  } catch {
    return false;
  }
}

export function setSound(on: boolean): void {
  try {
    localStorage.setItem(KEY, on ? 'on' : 'off');
  } catch {
    /* ignore */
  }
  if (on) play('move');
}

type Kind = 'move' | 'capture' | 'check' | 'end';

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
  end: [
    [523, 0, 0.12],
    [659, 0.12, 0.12],
    [784, 0.24, 0.2],
  ],
};

export function play(kind: Kind): void {
  if (!soundOn() || typeof AudioContext === 'undefined') return;
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
