// Checks the Kubernetes manifests in deploy/k8s (or the directory given as the first argument) without a
// cluster: every file parses, the kustomization lists only files that exist (and not the Secret template),
// and the objects the operations guide relies on are there with the settings it describes.
// Prints "k8s manifests: N files OK", or one line per problem and exits 1.
//
// YAML parser: the `yaml` package (devDependency) when installed, else `js-yaml` (at present only a transitive
// dependency of jest, so not guaranteed to stay).
const { existsSync, readdirSync, readFileSync } = require('node:fs');
const path = require('node:path');

const NAME = 'action-gateway';
const dir = path.resolve(process.argv[2] || path.join(__dirname, '..', 'deploy', 'k8s'));
const problems = [];
const problem = (text) => problems.push(text);

/** Every YAML document of a file's text, as plain values. */
function loadParser() {
  try {
    const YAML = require('yaml');
    return (text) => {
      const docs = YAML.parseAllDocuments(text);
      for (const doc of docs) if (doc.errors.length > 0) throw doc.errors[0];
      return docs.map((doc) => doc.toJS());
    };
  } catch (error) {
    if (error.code !== 'MODULE_NOT_FOUND') throw error;
  }
  try {
    const jsYaml = require('js-yaml');
    // js-yaml 3 has safeLoadAll (loadAll allows JS types); in js-yaml 4 loadAll is the safe one.
    const loadAll = jsYaml.safeLoadAll || jsYaml.loadAll;
    return (text) => {
      const docs = [];
      loadAll(text, (doc) => docs.push(doc));
      return docs;
    };
  } catch (error) {
    if (error.code !== 'MODULE_NOT_FOUND') throw error;
  }
  console.error('k8s manifests: no YAML parser installed: add the dev dependency `yaml` (npm install -D yaml)');
  process.exit(1);
}

function main() {
  if (!existsSync(dir)) {
    console.error(`k8s manifests: ${dir} does not exist`);
    process.exit(1);
  }
  const parse = loadParser();
  const files = readdirSync(dir)
    .filter((file) => /\.ya?ml$/.test(file))
    .sort();

  // file -> its documents (nulls from empty documents dropped)
  const documents = new Map();
  for (const file of files) {
    try {
      documents.set(file, parse(readFileSync(path.join(dir, file), 'utf8')).filter((doc) => doc != null));
    } catch (error) {
      problem(`${file}: does not parse: ${String(error.message || error).split('\n')[0]}`);
    }
  }
  if (problems.length > 0) return finish(files.length);

  const kustomization = checkKustomization(documents);
  const objects = [];
  for (const [file, docs] of documents) {
    if (file === 'kustomization.yaml') continue;
    for (const doc of docs) {
      if (typeof doc !== 'object' || !doc.kind || !doc.apiVersion || !doc.metadata || !doc.metadata.name) {
        problem(`${file}: a document without apiVersion, kind and metadata.name`);
        continue;
      }
      if (label(doc, 'app.kubernetes.io/name') !== NAME) {
        problem(`${file}: ${doc.kind} ${doc.metadata.name} lacks the label app.kubernetes.io/name: ${NAME}`);
      }
      objects.push({ file, doc, listed: kustomization.resources.has(file) });
    }
  }

  const byKind = (kind) => objects.filter((object) => object.doc.kind === kind);
  for (const kind of ['Deployment', 'Job', 'HorizontalPodAutoscaler', 'PodDisruptionBudget', 'NetworkPolicy', 'Service', 'ConfigMap']) {
    if (byKind(kind).length === 0) problem(`no ${kind} in ${path.relative(process.cwd(), dir) || '.'}`);
  }
  for (const { file, doc, listed } of byKind('Secret')) {
    if (listed) problem(`${file}: Secret ${doc.metadata.name} is applied by the kustomization: create it out of band`);
  }

  const configMaps = byKind('ConfigMap').map(({ doc }) => doc);
  for (const { file, doc } of byKind('ConfigMap')) {
    for (const [key, value] of Object.entries(doc.data || {})) {
      if (typeof value !== 'string') problem(`${file}: ConfigMap ${doc.metadata.name}: ${key} must be a quoted string`);
    }
  }

  const deployments = byKind('Deployment');
  for (const { file, doc } of deployments) checkDeployment(file, doc, configMaps);

  // Selectors: the Service, PDB and autoscaler must find the Deployment's pods, and never the Job's.
  const deploymentPods = deployments.map(({ doc }) => templateLabels(doc));
  const jobPods = byKind('Job').map(({ doc }) => templateLabels(doc));
  for (const { file, doc } of [...byKind('Service'), ...byKind('PodDisruptionBudget')]) {
    const selector = doc.kind === 'Service' ? doc.spec && doc.spec.selector : doc.spec && doc.spec.selector && doc.spec.selector.matchLabels;
    if (!selector || Object.keys(selector).length === 0) {
      problem(`${file}: ${doc.kind} ${doc.metadata.name} has no selector`);
      continue;
    }
    if (!deploymentPods.some((labels) => matches(selector, labels))) {
      problem(`${file}: ${doc.kind} ${doc.metadata.name} selects none of the Deployment's pods`);
    }
    if (jobPods.some((labels) => matches(selector, labels))) {
      problem(`${file}: ${doc.kind} ${doc.metadata.name} also selects the migration Job's pods`);
    }
  }
  for (const { file, doc } of byKind('HorizontalPodAutoscaler')) {
    const target = (doc.spec && doc.spec.scaleTargetRef) || {};
    if (target.kind !== 'Deployment' || !deployments.some(({ doc: deployment }) => deployment.metadata.name === target.name)) {
      problem(`${file}: HorizontalPodAutoscaler ${doc.metadata.name} does not target the Deployment`);
    }
  }
  for (const { file, doc } of deployments) {
    const selector = (doc.spec && doc.spec.selector && doc.spec.selector.matchLabels) || {};
    if (jobPods.some((labels) => matches(selector, labels))) {
      problem(`${file}: Deployment ${doc.metadata.name}'s selector also matches the migration Job's pods`);
    }
  }
  for (const { file, doc } of byKind('Job')) checkJob(file, doc);

  finish(files.length);
}

/** The kustomization's resources: each must exist, none may be the Secret template. */
function checkKustomization(documents) {
  const resources = new Set();
  const docs = documents.get('kustomization.yaml');
  if (!docs || docs.length !== 1 || docs[0].kind !== 'Kustomization') {
    problem('kustomization.yaml: missing, or not one Kustomization');
    return { resources };
  }
  const kustomization = docs[0];
  for (const resource of kustomization.resources || []) {
    resources.add(resource);
    if (!existsSync(path.join(dir, resource))) problem(`kustomization.yaml: resource ${resource} does not exist`);
  }
  if (resources.size === 0) problem('kustomization.yaml: no resources');
  if (resources.has('secret.example.yaml')) {
    problem('kustomization.yaml: secret.example.yaml is a template and must not be among the resources');
  }
  if (!(kustomization.images || []).some((image) => image && image.name === NAME)) {
    problem(`kustomization.yaml: no images entry for ${NAME} (to override the image per environment)`);
  }
  return { resources };
}

function checkDeployment(file, doc, configMaps) {
  const where = `${file}: Deployment ${doc.metadata.name}`;
  const pod = (doc.spec && doc.spec.template && doc.spec.template.spec) || {};
  const containers = pod.containers || [];
  const container = containers.find((candidate) => candidate.name === NAME) || containers[0];
  if (!container) return problem(`${where}: no container`);

  const probePath = (probe) => probe && probe.httpGet && probe.httpGet.path;
  if (probePath(container.livenessProbe) !== '/healthz') problem(`${where}: livenessProbe must be an httpGet on /healthz`);
  if (probePath(container.readinessProbe) !== '/readyz') problem(`${where}: readinessProbe must be an httpGet on /readyz`);

  const resources = container.resources || {};
  for (const kind of ['requests', 'limits']) {
    for (const resource of ['cpu', 'memory']) {
      if (!resources[kind] || resources[kind][resource] == null) problem(`${where}: resources.${kind}.${resource} is not set`);
    }
  }

  checkSecurity(where, pod, container);

  const grace = pod.terminationGracePeriodSeconds;
  if (typeof grace !== 'number' || grace < 60) {
    problem(`${where}: terminationGracePeriodSeconds must be at least 60 (webhook calls of 30 s drain on shutdown)`);
  } else {
    // The kubelet's deadline runs from the start of preStop: the sleep and the service's own shutdown
    // (SHUTDOWN_GRACE_MS, 55 s by default) must both fit in it.
    const preStop = container.lifecycle && container.lifecycle.preStop;
    const command = (preStop && preStop.exec && preStop.exec.command) || [];
    const sleep = command[0] === 'sleep' ? Number(command[1]) || 0 : preStop && preStop.sleep ? Number(preStop.sleep.seconds) || 0 : 0;
    const envConfigMaps = (container.envFrom || []).map((source) => source.configMapRef && source.configMapRef.name);
    const configured = configMaps.find((map) => envConfigMaps.includes(map.metadata.name));
    const graceMs = Number((configured && configured.data && configured.data.SHUTDOWN_GRACE_MS) || 55000);
    if (sleep + graceMs / 1000 >= grace) {
      problem(`${where}: terminationGracePeriodSeconds (${grace}) must exceed the preStop sleep (${sleep} s) plus SHUTDOWN_GRACE_MS (${graceMs / 1000} s)`);
    }
  }
}

function checkJob(file, doc) {
  const where = `${file}: Job ${doc.metadata.name}`;
  const pod = (doc.spec && doc.spec.template && doc.spec.template.spec) || {};
  const container = (pod.containers || [])[0];
  if (!container) return problem(`${where}: no container`);
  checkSecurity(where, pod, container);
  const spec = doc.spec || {};
  if (spec.backoffLimit == null) problem(`${where}: backoffLimit is not set`);
  if (spec.ttlSecondsAfterFinished == null) problem(`${where}: ttlSecondsAfterFinished is not set`);
}

/** Non-root, read-only root file system (pod- or container-level where Kubernetes allows either). */
function checkSecurity(where, pod, container) {
  const podContext = pod.securityContext || {};
  const context = container.securityContext || {};
  if ((context.runAsNonRoot ?? podContext.runAsNonRoot) !== true) problem(`${where}: runAsNonRoot must be true`);
  if (context.readOnlyRootFilesystem !== true) problem(`${where}: readOnlyRootFilesystem must be true`);
  if (context.allowPrivilegeEscalation !== false) problem(`${where}: allowPrivilegeEscalation must be false`);
}

function label(doc, key) {
  return doc.metadata && doc.metadata.labels && doc.metadata.labels[key];
}

function templateLabels(doc) {
  return (doc.spec && doc.spec.template && doc.spec.template.metadata && doc.spec.template.metadata.labels) || {};
}

function matches(selector, labels) {
  return Object.entries(selector).every(([key, value]) => labels[key] === value);
}

function finish(count) {
  if (problems.length > 0) {
    for (const text of problems) console.error(`k8s manifests: ${text}`);
    process.exit(1);
  }
  console.log(`k8s manifests: ${count} files OK`);
}

main();
