import { ProvidersList } from '@/features/admin-oauth-providers/components/providers-list';

export default function AdminOAuthProvidersRoute() {
  return <ProvidersList />;
}
