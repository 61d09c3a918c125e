// Validation of rendered objects against the Kubernetes API's JSON schemas (npm `kubernetes-models`, generated from
// the OpenAPI document of a current Kubernetes release) and KEDA's CRD schemas (`@kubernetes-models/keda`).
import type { K8sObject } from './render.js';

interface Validatable {
  validate(): void;
}
type ModelClass = new (data: object) => Validatable;

/** The module of a kind's model: core kinds under `v1/`, others under `<group>/<version>/`. */
function modelModule(apiVersion: string, kind: string): string {
  const [group, version] = apiVersion.includes('/') ? apiVersion.split('/') : ['', apiVersion];
  if (group === 'keda.sh') return `@kubernetes-models/keda/keda.sh/${version}/${kind}`;
  return group ? `kubernetes-models/${group}/${version}/${kind}` : `kubernetes-models/${version}/${kind}`;
}

/** Throws with the schema's message when `obj` is not a valid object of its kind (or its kind is unknown). */
export async function validateObject(obj: K8sObject): Promise<void> {
  const where = `${obj.kind}/${obj.metadata?.name}`;
  let model: ModelClass;
  try {
    const mod = (await import(modelModule(obj.apiVersion, obj.kind))) as Record<string, ModelClass>;
    model = mod[obj.kind]!;
  } catch (err) {
    throw new Error(`${where}: no schema for ${obj.apiVersion} ${obj.kind}`, { cause: err });
  }
  try {
    new model(obj).validate();
  } catch (err) {
    throw new Error(`${where}: ${(err as Error).message}`, { cause: err });
  }
}
