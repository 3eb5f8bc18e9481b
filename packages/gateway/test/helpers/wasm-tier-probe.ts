// Run as a child process with --allow-natives-syntax: reports whether a hot WebAssembly function
// is still Liftoff code after argv[3] ms of calls, after `tuneServeProcess` when argv[2] is "tuned".
import { tuneServeProcess } from '../../src/cli/runtime-tuning.js';

if (process.argv[2] === 'tuned') tuneServeProcess({});
// (module (func (export "inc") (param i32) (result i32) local.get 0 i32.const 1 i32.add))
const bytes = new Uint8Array([
  0, 97, 115, 109, 1, 0, 0, 0, 1, 6, 1, 96, 1, 127, 1, 127, 3, 2, 1, 0, 7, 7, 1, 3, 105, 110, 99, 0, 0, 10, 9, 1, 7, 0, 32, 0, 65, 1, 106, 11,
]);
const { instance } = await WebAssembly.instantiate(bytes);
const inc = instance.exports.inc as (x: number) => number;
const isLiftoff = new Function('f', 'return %IsLiftoffFunction(f)') as (f: unknown) => boolean;
// Hot enough for V8's dynamic tiering, then time for its background compile to land.
let x = inc(0); // the first call compiles it (lazily, with Liftoff)
const deadline = Date.now() + Number(process.argv[3] ?? 5_000);
while (isLiftoff(inc) && Date.now() < deadline) {
  for (let i = 0; i < 1e6; i++) x = inc(x);
  await new Promise((resolve) => setTimeout(resolve, 20));
}
process.stdout.write(JSON.stringify({ liftoff: isLiftoff(inc), calls: x }));
