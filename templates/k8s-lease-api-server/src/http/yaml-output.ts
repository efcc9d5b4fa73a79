// YAML response bodies as kube-apiserver's YAML serializer writes them: the JSON encoding turned into
// YAML by sigs.k8s.io/yaml's JSONToYAML, i.e. go-yaml v2 over generic maps — keys sorted, sequences not
// indented under their key, and strings that YAML 1.1 would read as another type (yes, n, timestamps,
// numbers) quoted. Long strings are not folded (go-yaml folds at 80 columns; both read back the same).
import { stringify } from 'yaml';

export function yamlFromJson(json: string): string {
  const value: unknown = JSON.parse(json);
  return stringify(value, { version: '1.1', sortMapEntries: true, indentSeq: false, lineWidth: 0 });
}
