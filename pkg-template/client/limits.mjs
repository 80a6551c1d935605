// The client's numeric options, read once each: every duration is a whole number of ms
// within setTimeout's range (a delay of 2^31 ms or more, or Infinity, fires after 1 ms, so a
// deadline that long would abort every attempt at once), every count a whole number within
// reason. Refused as INVALID_ARGUMENT naming the option and its bounds.

/** The longest delay setTimeout keeps (2^31 - 1 ms, about 24.8 days). */
const MAX_TIMER_MS = 2 ** 31 - 1;
/** The most retries a call takes: each attempt gets its share of the deadline, so more would leave each nothing. */
const MAX_RETRIES = 100;

/** A value as an error message may show it: numbers as written, anything else by its type. */
const shown = (value) => (typeof value === 'number' ? String(value) : value === null ? 'null' : `a ${typeof value}`);

/** `value` when it is a whole number from `min` to `max`; else an INVALID_ARGUMENT from `make`. */
function whole(make, where, name, value, min, max, unit) {
  if (typeof value === 'number' && Number.isInteger(value) && value >= min && value <= max) return value;
  const hint = unit === 'ms'
    ? `a delay of 2^31 ms or more fires after 1 ms in setTimeout, so it is refused; give at most ${max} ms`
    : `give a whole number from ${min} to ${max}`;
  const range = unit === 'ms' ? `of milliseconds from ${min} to ${max} (2^31 - 1)` : `from ${min} to ${max}`;
  throw make('INVALID_ARGUMENT', `${where}: '${name}' must be a whole number ${range}, not ${shown(value)}`, { hint });
}

/** A duration option (ms) from `min` to 2^31 - 1. */
const duration = (make, where, name, value, min) => whole(make, where, name, value, min, MAX_TIMER_MS, 'ms');
/** A count of retries, 0 to MAX_RETRIES. */
const retryCount = (make, where, value) => whole(make, where, 'retries', value, 0, MAX_RETRIES, 'count');

/** The durations and retries of createClient's `config` (`defaults` where it leaves one out). */
function clientLimits(make, config, defaults) {
  const pick = (name) => config[name] ?? defaults[name];
  const where = 'createClient';
  return {
    timeoutMs: duration(make, where, 'timeoutMs', pick('timeoutMs'), 1),
    retries: retryCount(make, where, pick('retries')),
    retryDelayMs: duration(make, where, 'retryDelayMs', pick('retryDelayMs'), 0),
    maxRetryDelayMs: duration(make, where, 'maxRetryDelayMs', pick('maxRetryDelayMs'), 0),
    attemptTimeoutMs: config.attemptTimeoutMs === undefined ? undefined : duration(make, where, 'attemptTimeoutMs', config.attemptTimeoutMs, 1),
  };
}

/** A call's options (`undefined` or an object): its deadline, attempt timeout and retries, the client's where it leaves one out. */
function callLimits(make, options, ctx) {
  const where = 'call options';
  if (options === undefined || options === null) options = {};
  else if (typeof options !== 'object') throw make('INVALID_ARGUMENT', `${where}: must be an object ({ signal, timeoutMs, attemptTimeoutMs, retries }), not ${shown(options)}`, { hint: 'pass the options as the last argument of the call, an object' });
  const given = (name) => options[name] !== undefined;
  return {
    signal: options.signal,
    timeoutMs: given('timeoutMs') ? duration(make, where, 'timeoutMs', options.timeoutMs, 1) : ctx.timeoutMs,
    attemptTimeoutMs: given('attemptTimeoutMs') ? duration(make, where, 'attemptTimeoutMs', options.attemptTimeoutMs, 1) : ctx.attemptTimeoutMs,
    retries: given('retries') ? retryCount(make, where, options.retries) : ctx.retries,
  };
}

export { MAX_RETRIES, MAX_TIMER_MS, callLimits, clientLimits, duration };
