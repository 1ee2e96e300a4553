// Runs an ONNX model in ONNX Runtime (the CPU runtime of the npm package onnxruntime-node):
//   node run-ort.js MODEL INPUTS.json OUTPUTS.json
// INPUTS.json maps each input name to {"dims": [...], "data": [...]} (float32, or int64 with
// "type": "int64"); OUTPUTS.json gets the same for every output.
//
// SPDX-License-Identifier: LGPL-2.1-or-later
'use strict';
const fs = require('fs');
const ort = require('onnxruntime-node');

async function main() {
  const [model, inputsPath, outputsPath] = process.argv.slice(2);
  const inputs = JSON.parse(fs.readFileSync(inputsPath, 'utf8'));
  const session = await ort.InferenceSession.create(model);
  const feeds = {};
  for (const [name, t] of Object.entries(inputs))
    feeds[name] = t.type === 'int64'
      ? new ort.Tensor('int64', BigInt64Array.from(t.data.map(BigInt)), t.dims)
      : new ort.Tensor('float32', Float32Array.from(t.data), t.dims);
  const results = await session.run(feeds);
  const out = {};
  for (const name of session.outputNames)
    out[name] = { dims: Array.from(results[name].dims), data: Array.from(results[name].data) };
  fs.writeFileSync(outputsPath, JSON.stringify(out));
}

main().catch((e) => { console.error(e.message); process.exit(1); });
