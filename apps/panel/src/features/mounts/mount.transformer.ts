import type { Transformer } from '@aerie/panel/http/application/transformer';
import type { MountAttributes } from '@aerie/shared/mounts/mounts-wire';
import type { Mount } from './mount';

/** `mount`, as Pelican's Application API renders it; its `eggs`, `nodes` and `servers` includes are wired by `application-includes.ts`. */
export const mountTransformer: Transformer<Mount> = {
  object: 'mount',
  attributes: (mount) =>
    ({
      id: mount.id,
      uuid: mount.uuid,
      name: mount.name,
      description: mount.description,
      source: mount.source,
      target: mount.target,
      read_only: mount.readOnly,
      user_mountable: mount.userMountable,
    }) satisfies MountAttributes,
};
