// `waitFor`: the info operation polled at once, then on the spec's interval (15 s, start to
// start: a poll's own time is not added to the wait) until a condition holds: 'requisites',
// 'final', or a function of the info model.
import { abortedError } from './aborted.mjs';
import { duration } from './limits.mjs';

const SPEC_INTERVAL_MS = 15000;

/** The conditions by name; `kind` is 'p2p' or 'widget'. */
const UNTIL = {
  // Requisites to show (or the page that shows them, for a widget); a final payment will
  // never have them, so it ends the wait too (its `isFinal` says so).
  requisites: (info, kind) => info.isFinal || info.requisites !== null || info.instruction !== null || (kind === 'widget' && Boolean(info.integration?.formUrl)),
  final: (info) => info.isFinal,
};

function waiter(ctx) {
  const { make, clock } = ctx;
  return async function waitFor(info, kind, ref, options = {}) {
    const { until = 'requisites', intervalMs = SPEC_INTERVAL_MS, timeoutMs = Infinity, signal } = options;
    const holds = typeof until === 'function' ? until : UNTIL[until] && ((model) => UNTIL[until](model, kind));
    if (!holds) throw make('INVALID_ARGUMENT', `waitFor: 'until' must be 'requisites', 'final' or a function of the info model, not ${JSON.stringify(until)}`);
    duration(make, 'waitFor', 'intervalMs', intervalMs, 0);
    // The wait's deadline is no timer (each poll's own is the client's timeoutMs at most): any length, Infinity for none.
    if (!(typeof timeoutMs === 'number' && timeoutMs >= 0)) {
      throw make('INVALID_ARGUMENT', "waitFor: 'timeoutMs' must be a number of milliseconds from 0 (Infinity: no deadline)", { hint: 'leave it out to wait until the condition holds' });
    }
    const started = clock();
    const deadline = started + timeoutMs;
    const timeout = (polls) => make('TIMEOUT', `waitFor: '${typeof until === 'function' ? 'until' : until}' did not hold within ${timeoutMs} ms (${polls} polls)`, { retryable: true, polls });
    for (let polls = 1; ; polls += 1) {
      const begun = clock();
      const remaining = deadline - begun;
      if (remaining <= 0) throw timeout(polls - 1);
      let model;
      try {
        model = await info(ref, { signal, timeoutMs: Math.ceil(Math.min(remaining, ctx.timeoutMs)) });
      } catch (error) {
        // The poll ran out of the wait's own time: that is the wait's TIMEOUT, not the poll's.
        if (error?.code === 'TIMEOUT' && remaining <= ctx.timeoutMs) throw Object.assign(timeout(polls), { cause: error });
        throw error;
      }
      if (holds(model)) return model;
      const left = deadline - clock();
      if (left <= 0) throw timeout(polls);
      const pause = Math.min(Math.max(0, begun + intervalMs - clock()), left);
      if (pause > 0) await ctx.sleep(pause, signal).catch((error) => Promise.reject(abortedError(make, 'waitFor', signal, error)));
      if (clock() >= deadline) throw timeout(polls);
    }
  };
}

export { SPEC_INTERVAL_MS, waiter };
