import { apiClient } from '@/lib/api-client';

/**
 * PUT /api/application/users/{id}/role: gives the user a role, or none (`null`). 204; 403 when the role reaches
 * further than the caller's, for the caller's own role, or for a root admin; 422 for an unknown role.
 */
export async function assignUserRole(userId: number, roleId: number | null): Promise<void> {
  await apiClient.put(`/api/application/users/${userId}/role`, { role_id: roleId });
}
