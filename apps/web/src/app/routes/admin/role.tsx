import { RolePage } from '@/features/admin-roles/components/role-pages';

export default function AdminRoleRoute() {
  return <RolePage />;
}
