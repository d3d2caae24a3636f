/* Sumito: the live game page's sounds. No audio files.
 *
 * Tones are made with the Web Audio API: a short click for every move (the player's own and the
 * opponent's), a double beep when the player's own clock drops under ten seconds (once per turn),
 * and a three-note phrase when the game ends. Browsers start audio only after a user gesture, so
 * the AudioContext is created (or resumed) on the page's first click or key press. The
 * "Sound on/off" button is remembered per browser (localStorage).
 */
import { gettext } from "sumito/i18n.js";
import { game } from "sumito/game/main.js";

function start() {
  const toggle = document.getElementById("sound-toggle");
  if (!game || !toggle) return;

  const MUTED_KEY = "sumito-sound-muted";
  const LOW_TIME_MS = 10000;
  let context = null;
  let warnedFor = null; // the version (ply) whose low-time warning has sounded

  function storedMuted() {
    try {
      return window.localStorage.getItem(MUTED_KEY) === "1";
    } catch (storageError) {
      return false;
    }
  }

  let muted = storedMuted();

  function showToggle() {
    toggle.textContent = muted ? gettext("Sound off") : gettext("Sound on");
    toggle.setAttribute("aria-pressed", String(muted));
    toggle.classList.toggle("off", muted);
  }

  toggle.addEventListener("click", () => {
    muted = !muted;
    try {
      if (muted) window.localStorage.setItem(MUTED_KEY, "1");
      else window.localStorage.removeItem(MUTED_KEY);
    } catch (storageError) {
      /* private mode: remembered for this page only */
    }
    showToggle();
  });

  /** The AudioContext, made or resumed inside a user gesture (the only time browsers allow it). */
  function wake() {
    const AudioContext = window.AudioContext || window.webkitAudioContext;
    if (!AudioContext) return;
    try {
      if (!context) context = new AudioContext();
      if (context.state === "suspended") context.resume();
    } catch (audioError) {
      context = null;
    }
  }
  for (const kind of ["pointerdown", "keydown"]) document.addEventListener(kind, wake, { capture: true });

  /** Tones as [frequency Hz, start s, length s, volume], from now. */
  function sound(tones, wave = "sine") {
    if (muted || !context || context.state !== "running") return;
    const now = context.currentTime;
    for (const [frequency, start, length, volume] of tones) {
      const oscillator = context.createOscillator();
      const gain = context.createGain();
      oscillator.type = wave;
      oscillator.frequency.value = frequency;
      // A quick attack and an exponential fade: no click at either end.
      gain.gain.setValueAtTime(0.0001, now + start);
      gain.gain.exponentialRampToValueAtTime(volume, now + start + 0.01);
      gain.gain.exponentialRampToValueAtTime(0.0001, now + start + length);
      oscillator.connect(gain).connect(context.destination);
      oscillator.start(now + start);
      oscillator.stop(now + start + length + 0.02);
    }
  }

  const moveSound = () => sound([[660, 0, 0.09, 0.25], [440, 0.015, 0.12, 0.12]], "triangle");
  const lowTimeSound = () => sound([[880, 0, 0.12, 0.2], [880, 0.18, 0.12, 0.2]], "square");
  const endSound = () => sound([[523, 0, 0.18, 0.22], [659, 0.16, 0.18, 0.22], [784, 0.32, 0.35, 0.22]]);

  game.onState((state, previous) => {
    if (previous.status === "started" && state.status !== "started") endSound();
    else if (state.version > previous.version) moveSound();
  });

  function checkLowTime() {
    const state = game.state();
    const colour = game.myColour;
    if (!colour || !game.myTurn() || state.time_control.base_seconds === null) return;
    if (!state.clock.running || state.clock.first_moves || warnedFor === state.version) return;
    if (game.remaining(colour) < LOW_TIME_MS) {
      warnedFor = state.version;
      lowTimeSound();
    }
  }

  showToggle();
  window.setInterval(checkLowTime, 250);
}

start();
