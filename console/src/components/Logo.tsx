import logo from '../favicon.svg';

export function Logo({ size = 28 }: { size?: number }) {
  return <img src={logo} width={size} height={size} alt="" />;
}
