// The same package through `require` (CommonJS build, pkg/node/payment_intake.d.ts),
// as the `exports` map gives it: `"require": { "types": "./node/payment_intake.d.ts" }`.
import api = require('../../pkg/node/payment_intake.js');

const report: api.ValidationReport = api.validateRequest('/api/v1/payment/p2p/payin', '{}');
const built: api.BuiltRequest = api.buildPayinRequest({ projectId: 'prj_8f2c', method: 'card-p2p', amount: 150000, currency: 'RUB' });
const minor: number = api.toMinorUnits('1500.50', 'RUB');
const callback: api.Callback = api.parseCallback('{}');
const rows: api.AvailabilityRow[] = api.availability();
// @ts-expect-error -- misspelled option
api.buildWidgetPayinRequest({ widget_method: 'payin-p2p-card' });
// @ts-expect-error -- not an issue code
const code: api.IssueCode = 'REQUIRED_FIELD';

export = { report, built, minor, callback, rows, code };
