// A second real client beside kubectl: the official Kubernetes Python client (a python3 that imports kubernetes,
// found by test/helpers/external-tools.ts; .ci/run installs Debian's python3-kubernetes) against the packed server package, installed into a fresh project and started
// as users start it. Create, read, replace (and a stale replace), strategic and JSON patches, list with a
// label selector and in pages, 404, watch (watch=True) and delete; namespace deletion (delete_namespace).
import { spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { findPython } from '../../helpers/external-tools.js';
import { describeWithTool } from '../../helpers/needs-tool.js';
import { installPackedPackages, startPackedServer, type PackedServer } from '../../helpers/packed-packages.js';

const SCENARIO = fileURLToPath(new URL('./lease_scenario.py', import.meta.url));
const WRITE_SCENARIO = fileURLToPath(new URL('./write_semantics_scenario.py', import.meta.url));
const NAMESPACE_SCENARIO = fileURLToPath(new URL('./namespace_delete_scenario.py', import.meta.url));
describeWithTool(
  'python-kubernetes',
  findPython(),
  'the official Python client against the packed server',
  (python) => {
    let server: PackedServer;
    let kubeconfig: string;

    beforeAll(async () => {
      const install = await installPackedPackages();
      kubeconfig = join(mkdtempSync(join(tmpdir(), 'python-client-')), 'kubeconfig');
      server = await startPackedServer(install, ['--tls', '--token', 'python-token', '--kubeconfig', kubeconfig]);
    }, 240_000);
    afterAll(() => server?.close());

    it('creates, reads, replaces, patches, lists with selectors and pages, watches and deletes', () => {
      const run = spawnSync(python, [SCENARIO, kubeconfig], { encoding: 'utf8', timeout: 60_000 });
      expect(run.stderr).toBe('');
      expect(run.status).toBe(0);
      expect(JSON.parse(run.stdout)).toEqual({
        created: ['py-a', 'py-b', 'py-c'],
        read_holder: 'py',
        read_renew_time_none: true,
        replaced_holder: 'py-replaced',
        conflict: { status: 409, reason: 'Conflict' },
        strategic_transitions: 2,
        json_patch_holder: 'py-json',
        selected: ['py-a', 'py-b'],
        pages: [['py-a'], ['py-b'], ['py-c']],
        missing: 404,
        watch_events: [
          ['ADDED', 'py-b', 'py'],
          ['ADDED', 'py-c', 'py'],
          ['MODIFIED', 'py-a', 'py-replaced'],
          ['MODIFIED', 'py-a', 'py-replaced'],
          ['MODIFIED', 'py-a', 'py-json'],
          ['MODIFIED', 'py-b', 'py-watched'],
        ],
        after_delete: ['py-a', 'py-b'],
      });
    });

    // handlers/create.go decodes with the URL's kind as default; store.go Update creates on update
    // (AllowCreateOnUpdate) and refuses an update without resourceVersion (AllowUnconditionalUpdate false).
    it('creates namespaces without kind, creates a missing Lease on replace, refuses an unconditional replace', () => {
      const run = spawnSync(python, [WRITE_SCENARIO, kubeconfig], { encoding: 'utf8', timeout: 60_000 });
      expect(run.stderr).toBe('');
      expect(run.status).toBe(0);
      expect(JSON.parse(run.stdout)).toEqual({
        namespace: ['Namespace', 'v1', 'py-team', 'Active'],
        replace_missing: ['py-new', 'py-created'],
        read_back: 'py-created',
        unconditional: {
          status: 422,
          reason: 'Invalid',
          message:
            'leases.coordination.k8s.io "py-new" is invalid: metadata.resourceVersion: Invalid value: 0: must be specified for an update',
        },
      });
    });

    // storage.go REST.Delete (the namespace answered, marked); namespaced_resources_deleter.go (emptied,
    // then gone); lifecycle/admission.go (NamespaceTerminating 403, immortal kube-system); store.go Create
    // ("object is being deleted").
    it('deletes a namespace with delete_namespace, and meets the lifecycle refusals', () => {
      const run = spawnSync(python, [NAMESPACE_SCENARIO, kubeconfig], { encoding: 'utf8', timeout: 90_000 });
      expect(run.stderr).toBe('');
      expect(run.status).toBe(0);
      expect(JSON.parse(run.stdout)).toEqual({
        deleted: [200, 'Namespace', 'Terminating', ['kubernetes']],
        gone: true,
        leases_left: [],
        create_in_terminating: {
          status: 403,
          reason: 'Forbidden',
          message:
            'leases.coordination.k8s.io "late" is forbidden: unable to create new content in namespace py-held because it is being terminated',
          causes: ['NamespaceTerminating'],
        },
        recreate: {
          status: 409,
          reason: 'AlreadyExists',
          message: 'object is being deleted: namespaces "py-held" already exists',
          causes: [],
        },
        protected: {
          status: 403,
          reason: 'Forbidden',
          message: 'namespaces "kube-system" is forbidden: this namespace may not be deleted',
          causes: [],
        },
      });
    });
  },
);
