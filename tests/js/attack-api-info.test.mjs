// Attack on parseInfoResponse's payment instruction: docs/api.md says that where the spec does
// not show where an info response carries display_data, "additional_info.display_data and
// a top-level display_data are both read". Any `additional_info` object hid the top-level
// one: `{ additional_info: {}, display_data: [...] }` read as no instruction at all.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { esm as api } from './helpers.mjs';

const OPERATIONS = ['/api/v1/payment/p2p/payin/info', '/api/v1/widget/payin/info'];
const response = { status: 'processing', sub_status: 'awaiting_confirm', request_id: 'r', project_id: 'p', payment_id: 'o', payment_info: { currency: 'RUB', amount: 5 } };
const item = (title, data) => ({ type: 'add_info', title, data });

test('a top-level display_data is read when additional_info carries none', () => {
  for (const operation of OPERATIONS) {
    for (const additional of [{}, { display_data: null }, { display_data: [] }, { note: 'x' }]) {
      const info = api.parseInfoResponse(operation, { ...response, additional_info: additional, display_data: [item('recipient_pan', '2200000000000001')] });
      assert.equal(info.instruction?.pan, '2200000000000001', `${operation} ${JSON.stringify(additional)}`);
    }
  }
});

test('additional_info.display_data is read as before, and first when both hold items (held)', () => {
  for (const operation of OPERATIONS) {
    const nested = api.parseInfoResponse(operation, { ...response, additional_info: { display_data: [item('recipient_pan', '2200000000000002')] } });
    assert.equal(nested.instruction.pan, '2200000000000002');
    const both = api.parseInfoResponse(operation, { ...response, additional_info: { display_data: [item('recipient_pan', '2200000000000002')] }, display_data: [item('recipient_pan', '2200000000000001')] });
    assert.equal(both.instruction.pan, '2200000000000002');
    assert.equal(api.parseInfoResponse(operation, { ...response, additional_info: {} }).instruction, null);
    const error = (() => {
      try {
        api.parseInfoResponse(operation, { ...response, additional_info: {}, display_data: 5 });
      } catch (e) {
        return e;
      }
      return undefined;
    })();
    assert.equal(error?.code, 'INVALID_RESPONSE');
  }
});
