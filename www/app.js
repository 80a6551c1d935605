// Entry point of the debugger page: loads the wasm package (no bundler: the
// browser build in pkg/web/, served by scripts/serve.mjs) and wires the three
// tools; the body built in tool 1 feeds tool 2, tool 2's key can sign tool 3's sample.
import init, { inputFieldTable, optionTable } from '../pkg/web/index.js';
import { createBuilder } from './builder.js';
import { wireInputFieldTable } from './builder-fields.js';
import { createCallbackChecker } from './callback.js';
import { $, describeFields, wireCopyButtons, wireOptionTable } from './dom.js';
import { createSigner } from './signer.js';

const status = $('load-status');

try {
  await init();
  wireOptionTable(optionTable());
  wireInputFieldTable(inputFieldTable());
  describeFields(document);
  wireCopyButtons();
  const signer = createSigner();
  createBuilder({ onBuilt: (built) => signer.setBuilt(built) });
  createCallbackChecker({ currentSigner: signer.currentSigner });
  status.textContent = 'Ready. Runs locally in WebAssembly.';
  status.className = 'load-status ready';
  document.body.dataset.ready = 'true';
} catch (error) {
  status.textContent = `Could not start: ${error.message}. Run \`npm run build\` (or \`npm start\`) so pkg/web/ exists.`;
  status.className = 'load-status failed';
  throw error;
}
