import { Controller, type FieldValues, type Path, useFormContext } from 'react-hook-form';
import { Switch } from '@/components/ui/switch';

interface FormSwitchProps<T extends FieldValues> {
  name: Path<T>;
  label: string;
  /** A line under the switch. */
  description?: string;
  className?: string;
}

/** The kit's Switch bound to a boolean field of the surrounding react-hook-form form. */
export function FormSwitch<T extends FieldValues>({
  name,
  label,
  description,
  className,
}: FormSwitchProps<T>) {
  const { control } = useFormContext<T>();
  return (
    <div className={className}>
      <Controller
        control={control}
        name={name}
        render={({ field }) => (
          <Switch
            checked={Boolean(field.value)}
            onChange={(checked) => field.onChange(checked)}
            label={label}
          />
        )}
      />
      {description && <p className="mt-1 ps-14 text-xs text-ink-400">{description}</p>}
    </div>
  );
}
