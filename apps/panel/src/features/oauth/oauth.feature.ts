import type { ActivityLog } from '@aerie/panel/features/activity/activity-log';
import { createGuardedFetch } from '@aerie/panel/http/outbound/guarded-fetch';
import { OutboundPolicy } from '@aerie/panel/http/outbound/outbound-policy';
import type { Infrastructure } from '@aerie/panel/infrastructure';
import { OAuthClients } from './oauth-clients';
import { OAuthLinksService } from './oauth-links.service';
import { OAuthProvidersService } from './oauth-providers.service';
import { OAuthSignInService } from './oauth-sign-in.service';

/**
 * Single sign-on: identity providers (OpenID Connect, Discord, GitHub) managed by root admins, signing in and
 * linking accounts through them. Every call to a provider goes through the outbound guard (AERIE_OUTBOUND_ALLOW).
 */
export function createOAuthFeature(
  { config, db, clock, secretBox }: Infrastructure,
  { activity }: { activity: ActivityLog },
) {
  const policy = new OutboundPolicy(config.outboundAllow);
  const clients = new OAuthClients({
    appUrl: config.appUrl,
    secretBox,
    policy,
    fetch: createGuardedFetch(policy),
    clock,
  });
  return {
    oauthProviders: new OAuthProvidersService({
      db,
      clock,
      secretBox,
      policy,
      changed: (id) => clients.forget(id),
    }),
    oauthClients: clients,
    oauthSignIn: new OAuthSignInService({ db, clock, activity }),
    oauthLinks: new OAuthLinksService({ db, activity }),
  };
}
