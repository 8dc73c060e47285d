// A stone's click, synthesised with WebAudio (no audio files to ship): a short filtered noise burst over a low
// knock, like a stone set on wood. Browsers start audio only after a user gesture, which any game has had.

let ctx = null;

/** Plays the stone sound once; silently does nothing where audio is unavailable. */
export function playStone(volume = 0.5) {
  try {
    ctx = ctx || new (globalThis.AudioContext || globalThis.webkitAudioContext)();
    if (ctx.state === 'suspended') ctx.resume();
    const now = ctx.currentTime;
    const len = Math.floor(ctx.sampleRate * 0.05);
    const buf = ctx.createBuffer(1, len, ctx.sampleRate);
    const data = buf.getChannelData(0);
    for (let i = 0; i < len; i++) data[i] = (Math.random() * 2 - 1) * (1 - i / len) ** 3;
    const noise = ctx.createBufferSource();
    noise.buffer = buf;
    const band = ctx.createBiquadFilter();
    band.type = 'bandpass';
    band.frequency.value = 2400;
    band.Q.value = 0.9;
    const knock = ctx.createOscillator();
    knock.type = 'sine';
    knock.frequency.setValueAtTime(190, now);
    knock.frequency.exponentialRampToValueAtTime(90, now + 0.08);
    const gain = ctx.createGain();
    gain.gain.setValueAtTime(volume, now);
    gain.gain.exponentialRampToValueAtTime(0.001, now + 0.12);
    noise.connect(band).connect(gain);
    knock.connect(gain);
    gain.connect(ctx.destination);
    noise.start(now);
    knock.start(now);
    knock.stop(now + 0.12);
  } catch {
    // No audio here; the game does not need it.
  }
}

/** A short two-note chime: a game was found (quick pairing, an accepted challenge). */
export function playChime(volume = 0.25) {
  try {
    ctx = ctx || new (globalThis.AudioContext || globalThis.webkitAudioContext)();
    if (ctx.state === 'suspended') ctx.resume();
    const now = ctx.currentTime;
    [660, 880].forEach((f, i) => {
      const osc = ctx.createOscillator();
      const gain = ctx.createGain();
      osc.type = 'sine';
      osc.frequency.value = f;
      const at = now + i * 0.14;
      gain.gain.setValueAtTime(0.0001, at);
      gain.gain.exponentialRampToValueAtTime(volume, at + 0.02);
      gain.gain.exponentialRampToValueAtTime(0.0001, at + 0.35);
      osc.connect(gain).connect(ctx.destination);
      osc.start(at);
      osc.stop(at + 0.4);
    });
  } catch {
    // No audio here.
  }
}
