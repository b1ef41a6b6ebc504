// Validates every object of the rendered kustomize output against the JSON schema of its apiVersion/kind:
// Kubernetes' own (npm kubernetes-models) and the prometheus-operator CRDs (@kubernetes-models/prometheus-operator).
// An object of a kind with no schema here fails: nothing passes unchecked.
//   node validate-k8s.mjs <folder with node_modules> <rendered.yaml>...
// Unknown fields are not rejected (the schemas allow them, like kubeconform without -strict); a few checks of our own
// below cover what a schema cannot: probes, resources, grace period, that every reference resolves, no service account
// token in a pod, and a NetworkPolicy for every service.
import { createRequire } from "node:module";
import { readFileSync } from "node:fs";
import { join, basename } from "node:path";
import { pathToFileURL } from "node:url";

const [modules, ...files] = process.argv.slice(2);
const nodeModules = join(modules, "node_modules");
const require = createRequire(join(nodeModules, "noop.js"));
const { parseAllDocuments } = await import(pathToFileURL(require.resolve("yaml")).href);

async function modelFor(apiVersion, kind) {
  let path;
  if (apiVersion === "monitoring.coreos.com/v1") {
    path = join(nodeModules, "@kubernetes-models/prometheus-operator/monitoring.coreos.com/v1", kind + ".js");
  } else {
    path = join(nodeModules, "kubernetes-models", apiVersion, kind + ".js");   // "v1" is the core group
  }
  try {
    const module = await import(pathToFileURL(path).href);
    return module[kind];
  } catch (e) {
    return undefined;
  }
}

let failures = 0;
let checked = 0;
const fail = (where, message) => { failures++; console.error(`FAIL ${where}: ${message}`); };

for (const file of files) {
  const docs = parseAllDocuments(readFileSync(file, "utf8"));
  const objects = docs.map((d) => d.toJS()).filter((o) => o);
  const byKind = (kind) => objects.filter((o) => o.kind === kind).map((o) => o.metadata.name);
  for (const doc of docs) {
    if (doc.errors.length) fail(basename(file), doc.errors.map((e) => e.message).join("; "));
  }
  for (const object of objects) {
    const where = `${basename(file)} ${object.kind}/${object.metadata?.name}`;
    const Model = await modelFor(object.apiVersion, object.kind);
    if (!Model) { fail(where, `no schema for ${object.apiVersion} ${object.kind}`); continue; }
    try {
      new Model(object).validate();
      checked++;
    } catch (e) {
      fail(where, e.message);
    }
    if (object.kind === "Deployment") {
      const pod = object.spec.template.spec;
      if (pod.automountServiceAccountToken !== false)
        fail(where, "automountServiceAccountToken is not false (no pod here talks to the Kubernetes API)");
      const app = object.spec.template.metadata?.labels?.["app.kubernetes.io/name"];
      const guarded = objects.some((o) => o.kind === "NetworkPolicy"
        && o.spec?.podSelector?.matchLabels?.["app.kubernetes.io/name"] === app);
      if (object.metadata.name.endsWith("-service") && !guarded)
        fail(where, `no NetworkPolicy selects app.kubernetes.io/name=${app} (who may call it)`);
      if (pod.terminationGracePeriodSeconds !== undefined && pod.terminationGracePeriodSeconds < 40)
        fail(where, "terminationGracePeriodSeconds below 40 s (the approval deadline is 20 s, shutdown phase 25 s)");
      for (const c of pod.containers) {
        if (!c.resources?.requests || !c.resources?.limits) fail(where, `container ${c.name} without requests and limits`);
        if (!c.readinessProbe || !c.livenessProbe) fail(where, `container ${c.name} without readiness and liveness probes`);
        for (const ref of (c.envFrom ?? [])) {
          if (ref.configMapRef && !byKind("ConfigMap").includes(ref.configMapRef.name)) fail(where, `ConfigMap ${ref.configMapRef.name} not rendered`);
          if (ref.secretRef && !byKind("Secret").includes(ref.secretRef.name) && !ref.secretRef.optional) fail(where, `Secret ${ref.secretRef.name} not rendered`);
        }
        for (const env of (c.env ?? [])) {
          const s = env.valueFrom?.secretKeyRef;
          if (s && !byKind("Secret").includes(s.name) && !file.includes("base")) fail(where, `Secret ${s.name} not rendered`);
        }
      }
      for (const v of (pod.volumes ?? [])) {
        if (v.configMap && !byKind("ConfigMap").includes(v.configMap.name)) fail(where, `ConfigMap ${v.configMap.name} not rendered`);
      }
    }
  }
  console.log(`${basename(file)}: ${objects.length} objects, kinds ${[...new Set(objects.map((o) => o.kind))].sort().join(", ")}`);
}
if (failures) {
  console.error(`${failures} problem(s)`);
  process.exit(1);
}
console.log(`${checked} objects valid against their schemas`);
