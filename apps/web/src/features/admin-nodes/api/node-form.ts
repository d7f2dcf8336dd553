import { DEFAULT_DAEMON_BASE, nodeAttributeNames, nodeMessages } from '@aerie/shared/nodes/nodes-bodies';
import { laravelMessages, laravelNumericMessages } from '@aerie/shared/validation/laravel-messages';
import { z } from 'zod';
import type { AllocationBody } from '@/features/admin-nodes/api/allocations';
import type { AdminNode, NodeBody } from '@/features/admin-nodes/api/nodes';

const NODE_NAME = /^([\w .-]{1,100})$/;
const DAEMON_BASE = /^([/][\d\w.\-/]+)$/;
const NUMBER = /^[+-]?\d+(\.\d+)?$/;
const INTEGER = /^[+-]?\d+$/;

const required = (attribute: string) =>
  z
    .string()
    .trim()
    .min(1, { error: laravelMessages.required(attribute), abort: true });

/** `required|numeric` (or `integer`) with its bounds, as typed in a text box and worded as the API words it. */
const numberField = (
  attribute: string,
  { min, max, integer = false }: { min: number; max?: number; integer?: boolean },
) =>
  required(attribute).superRefine((value, ctx) => {
    if (!(integer ? INTEGER : NUMBER).test(value)) {
      ctx.addIssue({
        code: 'custom',
        message: integer ? laravelMessages.integer(attribute) : laravelMessages.numeric(attribute),
      });
      return;
    }
    const number = Number(value);
    if (max !== undefined && (number < min || number > max)) {
      ctx.addIssue({
        code: 'custom',
        message: laravelNumericMessages.between?.(attribute, { min, max }) ?? '',
      });
    } else if (number < min) {
      ctx.addIssue({ code: 'custom', message: laravelNumericMessages.min?.(attribute, { min }) ?? '' });
    }
  });

/** The node form (create and settings), with the API's rules and wording (reference application API §3.3). */
export const nodeFormSchema = z.object({
  name: required('name').regex(NODE_NAME, laravelMessages.regex('name')),
  locationId: required(nodeAttributeNames.location_id),
  fqdn: required('fqdn').max(191, laravelMessages.max('fqdn', { max: 191 })),
  scheme: z.enum(['https', 'http']),
  behindProxy: z.boolean(),
  public: z.boolean(),
  maintenanceMode: z.boolean(),
  memory: numberField('memory', { min: 1 }),
  memoryOverallocate: numberField('memory overallocate', { min: -1 }),
  disk: numberField('disk', { min: 1 }),
  diskOverallocate: numberField('disk overallocate', { min: -1 }),
  uploadSize: numberField(nodeAttributeNames.upload_size, { min: 1, max: 1024, integer: true }),
  daemonListen: numberField('daemon listen', { min: 1, max: 65535 }),
  daemonSftp: numberField('daemon sftp', { min: 1, max: 65535 }),
  daemonBase: required(nodeAttributeNames.daemon_base)
    .max(191, laravelMessages.max(nodeAttributeNames.daemon_base, { max: 191 }))
    .regex(DAEMON_BASE, laravelMessages.regex(nodeAttributeNames.daemon_base)),
});

export type NodeFormValues = z.infer<typeof nodeFormSchema>;

/** A new node: Aerie's daemon port (8081) and SFTP port, Pterodactyl's upload limit and base directory. */
export const newNodeForm = (locationId = ''): NodeFormValues => ({
  name: '',
  locationId,
  fqdn: '',
  scheme: 'https',
  behindProxy: false,
  public: true,
  maintenanceMode: false,
  memory: '',
  memoryOverallocate: '0',
  disk: '',
  diskOverallocate: '0',
  uploadSize: '100',
  daemonListen: '8081',
  daemonSftp: '2022',
  daemonBase: DEFAULT_DAEMON_BASE,
});

export const nodeFormValues = (node: AdminNode): NodeFormValues => ({
  name: node.name,
  locationId: String(node.locationId),
  fqdn: node.fqdn,
  scheme: node.scheme === 'http' ? 'http' : 'https',
  behindProxy: node.behindProxy,
  public: node.public,
  maintenanceMode: node.maintenanceMode,
  memory: String(node.memory),
  memoryOverallocate: String(node.memoryOverallocate),
  disk: String(node.disk),
  diskOverallocate: String(node.diskOverallocate),
  uploadSize: String(node.uploadSize),
  daemonListen: String(node.daemonListen),
  daemonSftp: String(node.daemonSftp),
  daemonBase: node.daemonBase,
});

export const toNodeBody = (values: NodeFormValues): NodeBody => ({
  name: values.name,
  location_id: Number(values.locationId),
  fqdn: values.fqdn,
  scheme: values.scheme,
  behind_proxy: values.behindProxy,
  public: values.public,
  maintenance_mode: values.maintenanceMode,
  memory: Number(values.memory),
  memory_overallocate: Number(values.memoryOverallocate),
  disk: Number(values.disk),
  disk_overallocate: Number(values.diskOverallocate),
  upload_size: Number(values.uploadSize),
  daemon_listen: Number(values.daemonListen),
  daemon_sftp: Number(values.daemonSftp),
  daemon_base: values.daemonBase,
});

/** The API's field names → the form's, for a 422's messages. */
export const nodeFormFields = {
  name: 'name',
  location_id: 'locationId',
  fqdn: 'fqdn',
  scheme: 'scheme',
  memory: 'memory',
  memory_overallocate: 'memoryOverallocate',
  disk: 'disk',
  disk_overallocate: 'diskOverallocate',
  upload_size: 'uploadSize',
  daemon_listen: 'daemonListen',
  daemon_sftp: 'daemonSftp',
  daemon_base: 'daemonBase',
} as const;

/** A single port or a `start-end` range, as the API takes them (checked again there). */
const PORT_ENTRY = /^(\d+)(?:-(\d+))?$/;

/** The ports box: entries separated by commas (or spaces), each a port or a range. */
export const splitPorts = (text: string): string[] =>
  text
    .split(/[\s,]+/)
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '');

/** The add-allocations form; the port checks are the API's (reference application API §3.4), in its words. */
export const allocationFormSchema = z.object({
  ip: required('ip'),
  alias: z
    .string()
    .trim()
    .max(191, laravelMessages.max('alias', { max: 191 })),
  ports: required('ports').superRefine((value, ctx) => {
    for (const entry of splitPorts(value)) {
      const match = PORT_ENTRY.exec(entry);
      if (!match || (match[2] !== undefined && !/^\d{4,5}-\d{4,5}$/.test(entry))) {
        ctx.addIssue({ code: 'custom', message: nodeMessages.invalidPortMapping(entry) });
        return;
      }
      const start = Number(match[1]);
      const end = match[2] === undefined ? start : Number(match[2]);
      if (end - start + 1 > 1000) {
        ctx.addIssue({ code: 'custom', message: nodeMessages.tooManyPortsInRange });
        return;
      }
      if (start <= 1024 || start > 65535 || end <= 1024 || end > 65535) {
        ctx.addIssue({ code: 'custom', message: nodeMessages.portOutOfRange });
        return;
      }
    }
  }),
});

export type AllocationFormValues = z.infer<typeof allocationFormSchema>;

export const toAllocationBody = (values: AllocationFormValues): AllocationBody => ({
  ip: values.ip,
  alias: values.alias === '' ? null : values.alias,
  ports: splitPorts(values.ports),
});
