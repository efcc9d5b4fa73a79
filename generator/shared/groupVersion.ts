/** The API group and version the generator covers; load, IR and emitters all name it. */
export interface GroupVersion {
  readonly group: string;
  readonly version: string;
}

export const COORDINATION_V1: GroupVersion = { group: 'coordination.k8s.io', version: 'v1' };

export function groupPathPrefix(gv: GroupVersion): string {
  return `/apis/${gv.group}/${gv.version}/`;
}
