// The browser build (pkg/web/, the `browser` and `default` conditions): same API after init().
import init, { initSync, validateRequest, buildWidgetPayinRequest, parseCallback, type ValidationReport, type WidgetPayinInput } from '../../pkg/web/index.js';

declare const wasmBytes: Uint8Array;

export async function start(): Promise<ValidationReport> {
  await init();
  initSync({ module: wasmBytes });
  const input: WidgetPayinInput = { widgetMethod: 'payin-p2p-card-international', country: 'KZ', currency: 'KZT', amountMajor: '5000.00' };
  const built = buildWidgetPayinRequest(input);
  parseCallback(built.bodyText);
  // @ts-expect-error -- misspelled option
  buildWidgetPayinRequest({ widgetmethod: 'payin-p2p-card' });
  return validateRequest('/api/v1/widget/payin', built.body);
}
