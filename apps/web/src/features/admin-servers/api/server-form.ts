import { z } from 'zod';
import type { CreateServerInput } from '@/features/admin-servers/api/admin-servers';

/**
 * The admin's new-server form as typed (strings, as inputs hold them), and how it becomes the Application API's
 * body. The API checks everything again; the form catches what it can before a round trip.
 */
const wholeNumber = (message: string) => z.string().trim().regex(/^\d+$/, message);

export const createServerFormSchema = (messages: {
  required: string;
  wholeNumber: string;
  pickOwner: string;
  pickAllocation: string;
}) =>
  z
    .object({
      name: z.string().trim().min(1, messages.required).max(191),
      description: z.string(),
      externalId: z.string().trim().max(191),
      ownerId: z.number({ error: messages.pickOwner }).int().positive(messages.pickOwner),
      mode: z.enum(['allocation', 'deploy']),
      nodeId: z.string(),
      allocationId: z.string(),
      additionalIds: z.array(z.string()),
      locationIds: z.array(z.string()),
      dedicatedIp: z.boolean(),
      portRange: z.string(),
      eggId: z.string().min(1, messages.required),
      image: z.string().trim().min(1, messages.required).max(191),
      startup: z.string().trim().min(1, messages.required),
      variables: z.record(z.string(), z.string()),
      memory: wholeNumber(messages.wholeNumber),
      swap: z
        .string()
        .trim()
        .regex(/^-?\d+$/, messages.wholeNumber),
      disk: wholeNumber(messages.wholeNumber),
      cpu: wholeNumber(messages.wholeNumber),
      io: wholeNumber(messages.wholeNumber),
      threads: z.string().trim(),
      databases: wholeNumber(messages.wholeNumber),
      allocationsLimit: wholeNumber(messages.wholeNumber),
      backups: wholeNumber(messages.wholeNumber),
      startOnCompletion: z.boolean(),
      skipScripts: z.boolean(),
      oomDisabled: z.boolean(),
    })
    .superRefine((values, ctx) => {
      if (values.mode === 'allocation' && !values.allocationId) {
        ctx.addIssue({ code: 'custom', path: ['allocationId'], message: messages.pickAllocation });
      }
    });

export type CreateServerFormValues = z.infer<ReturnType<typeof createServerFormSchema>>;

export const createServerDefaults: CreateServerFormValues = {
  name: '',
  description: '',
  externalId: '',
  ownerId: 0,
  mode: 'allocation',
  nodeId: '',
  allocationId: '',
  additionalIds: [],
  locationIds: [],
  dedicatedIp: false,
  portRange: '',
  eggId: '',
  image: '',
  startup: '',
  variables: {},
  memory: '1024',
  swap: '0',
  disk: '5120',
  cpu: '100',
  io: '500',
  threads: '',
  // What a game server commonly gets (a database, its one port, a few backups): 0 would forbid each outright.
  databases: '1',
  allocationsLimit: '1',
  backups: '3',
  startOnCompletion: true,
  skipScripts: false,
  oomDisabled: true,
};

export function toCreateServerInput(values: CreateServerFormValues): CreateServerInput {
  return {
    name: values.name.trim(),
    description: values.description,
    external_id: values.externalId.trim() || null,
    user: values.ownerId,
    egg: Number(values.eggId),
    docker_image: values.image.trim(),
    startup: values.startup.trim(),
    environment: values.variables,
    limits: {
      memory: Number(values.memory),
      swap: Number(values.swap),
      disk: Number(values.disk),
      io: Number(values.io),
      cpu: Number(values.cpu),
      threads: values.threads.trim() || null,
    },
    feature_limits: {
      databases: Number(values.databases),
      allocations: Number(values.allocationsLimit),
      backups: Number(values.backups),
    },
    ...(values.mode === 'allocation'
      ? { allocation: { default: Number(values.allocationId), additional: values.additionalIds.map(Number) } }
      : {
          deploy: {
            locations: values.locationIds.map(Number),
            dedicated_ip: values.dedicatedIp,
            port_range: values.portRange
              .split(',')
              .map((entry) => entry.trim())
              .filter(Boolean),
          },
        }),
    start_on_completion: values.startOnCompletion,
    skip_scripts: values.skipScripts,
    oom_disabled: values.oomDisabled,
  };
}
