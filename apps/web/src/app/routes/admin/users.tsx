import { UsersList } from '@/features/admin-users/components/users-list';

export default function AdminUsersRoute() {
  return <UsersList />;
}
