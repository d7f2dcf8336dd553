import { ProviderPage } from '@/features/admin-oauth-providers/components/provider-pages';

export default function AdminOAuthProviderRoute() {
  return <ProviderPage />;
}
