// Runs an ONNX model in ONNX Runtime (the CPU runtime of the npm package onnxruntime-node):
//   node run-ort.js MODEL INPUTS.json OUTPUTS.json [REPEAT [THREADS]]
// INPUTS.json maps each input name to {"dims": [...], "data": [...]} (float32, or int64 with
// "type": "int64"); OUTPUTS.json gets the same for every output. With REPEAT, the session runs
// that many more times and OUTPUTS.json also holds "ms_per_run": the median time of one run
// (bench/bench_onnx_torch.py); THREADS sets the runtime's intra-op threads.
//
// SPDX-License-Identifier: LGPL-2.1-or-later
'use strict';
const fs = require('fs');
const ort = require('onnxruntime-node');

async function main() {
  const [model, inputsPath, outputsPath, repeat, threads] = process.argv.slice(2);
  const inputs = JSON.parse(fs.readFileSync(inputsPath, 'utf8'));
  const options = threads ? { intraOpNumThreads: Number(threads), interOpNumThreads: 1 } : {};
  const session = await ort.InferenceSession.create(model, options);
  const feeds = {};
  for (const [name, t] of Object.entries(inputs))
    feeds[name] = t.type === 'int64'
      ? new ort.Tensor('int64', BigInt64Array.from(t.data.map(BigInt)), t.dims)
      : new ort.Tensor('float32', Float32Array.from(t.data), t.dims);
  const results = await session.run(feeds);
  const out = {};
  for (const name of session.outputNames)
    out[name] = { dims: Array.from(results[name].dims), data: Array.from(results[name].data) };
  if (repeat) {
    const times = [];
    for (let i = 0; i < Number(repeat); i++) {
      const t0 = process.hrtime.bigint();
      await session.run(feeds);
      times.push(Number(process.hrtime.bigint() - t0) / 1e6);
    }
    times.sort((a, b) => a - b);
    out.ms_per_run = times[Math.floor(times.length / 2)];
  }
  fs.writeFileSync(outputsPath, JSON.stringify(out));
}

main().catch((e) => { console.error(e.message); process.exit(1); });
