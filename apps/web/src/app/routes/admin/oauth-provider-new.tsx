import { NewProviderPage } from '@/features/admin-oauth-providers/components/provider-pages';

export default function AdminOAuthProviderNewRoute() {
  return <NewProviderPage />;
}
