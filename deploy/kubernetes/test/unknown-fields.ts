// Fields the Kubernetes API does not know. The API's JSON schemas allow unknown fields (the server drops them, so a
// misspelt `readinesProbe` would be silently ignored); the typed models of `kubernetes-models` list every field, so
// the TypeScript checker walks each rendered object along its kind's interface and names the fields it lacks.
import path from 'node:path';
import ts from 'typescript';
import { REPO_ROOT, type K8sObject } from './render.js';

const MODULES = path.join(REPO_ROOT, 'node_modules');

/** The declaration file of a kind's model (same layout as schemas.ts' modules). */
function declarationFile(apiVersion: string, kind: string): string {
  const [group, version] = apiVersion.includes('/') ? apiVersion.split('/') : ['', apiVersion];
  if (group === 'keda.sh') return path.join(MODULES, '@kubernetes-models', 'keda', 'keda.sh', version!, `${kind}.d.ts`);
  return path.join(MODULES, 'kubernetes-models', ...(group ? [group] : []), version!, `${kind}.d.ts`);
}

/**
 * Returns `<Kind>/<name>: <path>` for every field of `objects` their kind's interface does not declare. Maps with
 * free keys (labels, annotations, ConfigMap data) and values typed loosely (`any`, unions of object types) are not
 * looked into.
 */
export function unknownFields(objects: K8sObject[]): string[] {
  const files = new Map(objects.map((o) => [o, declarationFile(o.apiVersion, o.kind)]));
  const program = ts.createProgram([...new Set(files.values())], {
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    noEmit: true,
    skipLibCheck: true,
  });
  const checker = program.getTypeChecker();
  const found: string[] = [];

  const walk = (value: unknown, type: ts.Type, at: string, where: string): void => {
    if (value === null || typeof value !== 'object') return;
    const members = type.isUnion() ? type.types.filter((t) => !(t.flags & (ts.TypeFlags.Undefined | ts.TypeFlags.Null))) : [type];
    if (members.length !== 1) return;
    const t = members[0]!;
    if (Array.isArray(value)) {
      if (!checker.isArrayType(t)) return;
      const [element] = checker.getTypeArguments(t as ts.TypeReference);
      value.forEach((v, i) => walk(v, element!, `${at}[${i}]`, where));
      return;
    }
    if (!(t.flags & ts.TypeFlags.Object) || checker.getIndexInfosOfType(t).length > 0) return;
    for (const [key, v] of Object.entries(value)) {
      const prop = t.getProperty(key);
      if (!prop) {
        found.push(`${where}: ${at}.${key}`);
        continue;
      }
      walk(v, checker.getNonNullableType(checker.getTypeOfSymbol(prop)), `${at}.${key}`, where);
    }
  };

  for (const [obj, file] of files) {
    const source = program.getSourceFile(file)!;
    const exported = checker.getExportsOfModule(checker.getSymbolAtLocation(source)!);
    const iface = exported.find((s) => s.name === `I${obj.kind}`)!;
    walk(obj, checker.getDeclaredTypeOfSymbol(iface), '', `${obj.kind}/${obj.metadata.name}`);
  }
  return found;
}
