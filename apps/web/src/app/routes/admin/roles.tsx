import { RolesList } from '@/features/admin-roles/components/roles-list';

export default function AdminRolesRoute() {
  return <RolesList />;
}
