// How a field error quotes its bad value in each release: apimachinery's field.Error.ErrorBody prints ints and
// bools with %v and strings with %q in every release, and everything else (a uint64, a []string) with Go's %#v
// up to 1.33 and as JSON from 1.34 (kubernetes 2b2c9ade "Nicer value rendering in API errors").
import type { ConformanceCase } from '../case.js';

const LEASES = '/apis/coordination.k8s.io/v1/namespaces/{ns}/leases';
const ERRORS_GO = 'k8s.io/apimachinery/pkg/util/validation/field/errors.go Error.ErrorBody';

const lease = (name: string, spec: object = { holderIdentity: 'alice' }) => ({
  apiVersion: 'coordination.k8s.io/v1',
  kind: 'Lease',
  metadata: { name },
  spec,
});

interface ReleaseRendering {
  release: string;
  /** Up to 1.33: `%#v` (errors.go at v0.33.0); from 1.34: json.Marshal (errors.go at v0.34.0). */
  rendering: string;
  uint64Zero: string;
  bogusList: string;
}

const RELEASES: readonly ReleaseRendering[] = [
  { release: '1.33', rendering: "Go's %#v", uint64Zero: '0x0', bogusList: '[]string{"Bogus"}' },
  { release: '1.34', rendering: 'JSON', uint64Zero: '0', bogusList: '["Bogus"]' },
];

function casesFor({ release, rendering, uint64Zero, bogusList }: ReleaseRendering): ConformanceCase[] {
  const serverArgs = ['--release', release];
  return [
    {
      name: `${release}: an update without resourceVersion quotes the uint64 zero as ${rendering} (${uint64Zero})`,
      source: `${ERRORS_GO} (uint64 is none of int64, int32, float, bool, string); k8s.io/apiserver/pkg/registry/generic/registry/store.go Store.Update`,
      serverArgs,
      steps: [
        { method: 'POST', path: LEASES, body: lease('rv'), expect: { status: 201 } },
        {
          method: 'PUT',
          path: `${LEASES}/rv`,
          body: lease('rv', { holderIdentity: 'bob' }),
          expect: {
            status: 422,
            json: {
              message: `leases.coordination.k8s.io "rv" is invalid: metadata.resourceVersion: Invalid value: ${uint64Zero}: must be specified for an update`,
              details: {
                causes: [
                  {
                    reason: 'FieldValueInvalid',
                    message: `Invalid value: ${uint64Zero}: must be specified for an update`,
                    field: 'metadata.resourceVersion',
                  },
                ],
              },
            },
          },
        },
      ],
    },
    {
      name: `${release}: an unknown dryRun quotes the []string as ${rendering} (${bogusList})`,
      source: `${ERRORS_GO}; k8s.io/apimachinery/pkg/apis/meta/v1/validation/validation.go ValidateDryRun (field.NotSupported of the []string)`,
      serverArgs,
      steps: [
        {
          method: 'POST',
          path: `${LEASES}?dryRun=Bogus`,
          body: lease('dry'),
          expect: {
            status: 422,
            json: {
              message: `CreateOptions.meta.k8s.io "" is invalid: dryRun: Unsupported value: ${bogusList}: supported values: "All"`,
            },
          },
        },
      ],
    },
    {
      name: `${release}: an int32 prints with %v and a string with %q, as in every release`,
      source: `${ERRORS_GO} (the int64, int32 and string cases); pkg/apis/coordination/validation ValidateLeaseSpec; apimachinery meta/v1/validation ValidateFieldValidation`,
      serverArgs,
      steps: [
        {
          method: 'POST',
          path: LEASES,
          body: lease('zero', { holderIdentity: 'alice', leaseDurationSeconds: 0 }),
          expect: {
            status: 422,
            json: {
              message:
                'Lease.coordination.k8s.io "zero" is invalid: spec.leaseDurationSeconds: Invalid value: 0: must be greater than 0',
            },
          },
        },
        {
          method: 'POST',
          path: `${LEASES}?fieldValidation=Bogus`,
          body: lease('fv'),
          expect: {
            status: 422,
            json: {
              message:
                'CreateOptions.meta.k8s.io "" is invalid: fieldValidation: Unsupported value: "Bogus": supported values: "", "Ignore", "Strict", "Warn"',
            },
          },
        },
      ],
    },
  ];
}

export const cases: readonly ConformanceCase[] = RELEASES.flatMap(casesFor);
