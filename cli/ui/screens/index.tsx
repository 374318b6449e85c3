/** The current screen, by the state's discriminated union. */
import { LendingScreen } from './lending.js';
import { StakingScreen } from './staking.js';
import { Text } from 'ink';
import { useUi } from '../context.js';
import { Busy } from '../widgets/layout.js';
import { ExecutingScreen } from './executing.js';
import { HomeScreen } from './home.js';
import { HistoryScreen, LogoutScreen, StatusScreen } from './info.js';
import { PortfolioScreen, RebalanceScreen } from './portfolio.js';
import { FailureScreen, ReceiptScreen, UnavailableScreen } from './outcome.js';
import { ReviewScreen } from './review.js';
import { SendScreen } from './send.js';
import { SettingsScreen } from './settings.js';
import { SignInScreen } from './sign-in.js';
import { SwapRowsScreen } from './swap-rows.js';
import { TradeScreen } from './trade.js';

export function ScreenView({ quit }: { quit: () => void }) {
  const { state } = useUi();
  const screen = state.screen;
  switch (screen.name) {
    case 'connecting':
      return <Busy label="connecting…" />;
    case 'signIn':
      return <SignInScreen email={screen.email} note={screen.note} />;
    case 'home':
      return <HomeScreen key={screen.selected ?? 0} quit={quit} selected={screen.selected} />;
    case 'trade':
      return <TradeScreen initial={screen.form} />;
    case 'multiSwap':
      return <SwapRowsScreen key="multi-swap" kind="multi-swap" initial={screen.form} />;
    case 'batch':
      return <SwapRowsScreen key="batch" kind="batch" initial={screen.form} />;
    case 'review':
      return <ReviewScreen plan={screen.plan} />;
    case 'executing':
      return <ExecutingScreen job={screen} />;
    case 'send':
      return <SendScreen initial={screen.form} />;
    case 'receipt':
      return <ReceiptScreen receipt={screen.receipt} />;
    case 'failure':
      return (
        <FailureScreen
          title={screen.title}
          message={screen.message}
          next={screen.next}
          signIn={screen.signIn === true}
          code={screen.code}
        />
      );
    case 'history':
      return <HistoryScreen />;
    case 'status':
      return <StatusScreen />;
    case 'portfolio':
      return <PortfolioScreen />;
    case 'staking':
      return <StakingScreen initial={screen.form} />;
    case 'lending':
      return <LendingScreen initial={screen.form} />;
    case 'rebalance':
      return <RebalanceScreen initial={screen.form} />;
    case 'settings':
      return <SettingsScreen />;
    case 'logout':
      return <LogoutScreen />;
    case 'unavailable':
      return <UnavailableScreen what={screen.what} why={screen.why} />;
    default:
      return <Text>unknown screen</Text>;
  }
}
