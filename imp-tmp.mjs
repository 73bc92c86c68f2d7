import { loadPyodide } from "pyodide";
import { readFileSync, readdirSync } from "node:fs";
const py = await loadPyodide();
py.FS.mkdirTree("/lib/c/calificador");
for (const f of readdirSync("widgets/calificador").filter((f) => f.endsWith(".py")))
  py.FS.writeFile(`/lib/c/calificador/${f}`, readFileSync(`widgets/calificador/${f}`));
for (const f of readdirSync("widgets/trabajador").filter((f) => f.endsWith(".py")))
  py.FS.writeFile(`/lib/c/${f}`, readFileSync(`widgets/trabajador/${f}`));
const r = py.runPython(`
import time, sys
sys.path.insert(0, "/lib/c")
res = []
antes = set(sys.modules)
def t(stmt):
    a = time.perf_counter(); exec(stmt, {}); res.append((stmt, round((time.perf_counter()-a)*1000,1)))
for s in ${JSON.stringify(process.argv.slice(2))}:
    t(s)
res.append(("new modules", sorted(set(sys.modules) - antes)))
res
`).toJs();
for (const x of r) console.log(x.join("  "));
