/**
 * The selectors of the entry points and events the program calls or reads, by name: sn_keccak of
 * the name (the low 250 bits of its Keccak-256), in starknet.js's spelling (`0x`, lower case, no
 * leading zero: `hash.getSelectorFromName`). Each would otherwise be a keccak run cold on every
 * command (a trade ran 17: docs/benchmarks.md "Issue 35, seventh round"): shared/erc20.ts's
 * selectorOf reads them here, and so does starknet.js's own getSelectorFromName in the bin's
 * bundle (scripts/bundle-plugins.mjs `knownSelectors`; it imports this file, so this file imports
 * nothing). A name not listed is hashed as before. shared/selectors.test.ts holds every one equal
 * to starknet.js's getSelectorFromName.
 */
const SELECTORS: ReadonlyArray<readonly [name: string, selector: string]> = [
  // ERC-20 entry points and events (shared/erc20.ts)
  ['transfer', '0x83afd3f4caedc6eebf44246fe54e38c95e3179a5ec9ea81740eca5b482d12e'],
  ['transfer_from', '0x3704ffe8fba161be0e994951751a5033b1462b918ff785c0a636be718dfdb68'],
  ['transferFrom', '0x41b033f4a31df8067c24d1e9b550a2ce75fd4a29e1147af9752174f0e6cb20'],
  ['approve', '0x219209e083275171774dab1df80982e9df2096516f06319c5c6d71ae0a8480c'],
  ['balance_of', '0x35a73cd311a05d46deda634c5ee045db92f811b4e74bca4437fcb5302b7af33'],
  ['balanceOf', '0x2e4263afad30923c891518314c3c95dbe830a16874e8abc5777a9a20b54c76e'],
  ['allowance', '0x1e888a1026b19c8c0b57c72d63ed1737106aa10034105b980ba117bd0c29fe1'],
  ['decimals', '0x4c4fb1ab068f6039d5780c68dd0fa2f8742cceb3426d19667778ca7f3518a9'],
  ['symbol', '0x216b05c387bab9ac31918a3e61672f4618601f3c598a2f3f2710f37053e1ea4'],
  ['name', '0x361458367e696363fbcc70777d07ebbd2394e89fd0adcaf147faccd1d294d60'],
  ['total_supply', '0x1557182e4359a1f0c6301278e8f5b35a776ab58d39892581e357578fb287836'],
  ['totalSupply', '0x80aa9fdbfaf9615e4afc7f5f722e265daca5ccc655360fa5ccacf9c267936d'],
  ['Transfer', '0x99cd8bde557814842a3121e8ddfd433a539b8c9f14bf31ebf108d12e6196e9'],
  ['Approval', '0x134692b230b9e1ffa39098904722134159652b09c5bc41d88d6698779d228ff'],
  // the account: SNIP-5 introspection, SNIP-9 outside execution, its execute
  ['supports_interface', '0xfe80f537b66d12a00b6d3c072b44afbb716e78dde5c3f0ef116ee93d3e3283'],
  [
    'is_valid_outside_execution_nonce',
    '0x1e6d35df2b9d989fb4b6bbcebda1314e4254cbe5e589dd94ff4f29ea935e91c',
  ],
  ['execute_from_outside_v2', '0x34cc13b274446654ca3233ed2c1620d4c5d1d32fd20b47146a3371064bdc57d'],
  ['__execute__', '0x15d40a3d6ca2ac30f4031e42be28da9b056fef9bb7357ac5e85627ee876e5ad'],
  // the aggregator's router (cli/core/actions/calls.ts)
  ['swap', '0x15543c3708653cda9d418b4ccd3be11368e40636c10c44b18cfe756b6d88b29'],
  // staking, Vesu, Pragma (shared/staking.ts, shared/vesu.ts, shared/pragma.ts), the sandbox's vToken class
  ['add_to_delegation_pool', '0x2ec6c127d4ffe4bdc6597d95c3aeac9ab96edeb735da12054582c9a20034db2'],
  ['asset', '0x3d4060688a1800ae986e4840aebc924bb40b5bf44de4583df2257220b54b77c'],
  ['change_reward_address', '0x21713327fe100128327e0b24ea098e4413c043993f93c15e96697fb5b063e66'],
  ['check_collateralization', '0x177253d46b04a28e43bb4c3af4f4511c9ac961102b55f3ce37ffafb764170ac'],
  ['claim_rewards', '0x89c7b1cc4866e9e58d867cb66844bcc9c17cfdabb8ab640b05d2bc53efc556'],
  ['convert_to_assets', '0xd98b5465896f232dc34900bfe6aa99e4ebc8a961521c6168a0664b313298c1'],
  ['convert_to_shares', '0x25425c8baf95b52af36121a39e0304ffc963aab145baa8cbbde61af1be9be4c'],
  ['deposit', '0xc73f681176fc7b3f9693986fd7b14581e8d540519e27400e88b8713932be01'],
  ['enter_delegation_pool', '0x28d4193fb8ce46eddddb440a7045e0abfb03313d85424642281b927d824a9c'],
  [
    'exit_delegation_pool_action',
    '0x1a1e389f01dfd06ed80e78e8bd82085fa725e99292dd3507d80bbfd8c889efa',
  ],
  [
    'exit_delegation_pool_intent',
    '0x3a8373903fa7946f74e89e626260495125e0bc54dcb43e90c895f69f69b00af',
  ],
  ['get_active_tokens', '0x3f3cf5e475189c2cec4d370647dc1c1e0ef821e68b827a66c21b3ceb538db4d'],
  ['get_current_epoch', '0x3beab8392e2cc92168265cc5aa060880965965816c1cbaf14549912838c9896'],
  ['get_data', '0x3c8e49f80f188aa594216c470baf9428ed7dbef7af8f907328bee96696b878'],
  ['get_data_median', '0x24b869ce68dd257b370701ca16e4aaf9c6483ff6805d04ba7661f3a0b6ce59'],
  ['get_decimals', '0x16d9d5d83f8eecc5d7450519aad7e6e649be1a6c9d6df85bd0b177cc59a926a'],
  ['get_total_stake', '0x226ffc5db8f68325947f4c4fcbea7117624ed26d4a1354693f63de203c453c8'],
  ['max_redeem', '0x24101f2b9fd275ad1325d86746340993673fa341d415f6ead337a25e1a82aba'],
  ['max_withdraw', '0x1b8c63e132bbd5b9eaffa415eadeeeb1bd75050efa9dbc4697ddb3e46f10d71'],
  ['modify_position', '0x39b9c84d6a72745116ecdbd7f122af6d51a7183b6e764d621583713bcceb8cd'],
  ['pair_config', '0x171c2fae45c0df09f8253d0a3bdf9756051f8fa442f4349827736d3e3135c06'],
  ['position', '0x334f8ce3b01e25d0b6fe82d0fdb6eb534f3183d7dc5a6bb44d8eb9f676f650c'],
  ['preview_deposit', '0x2152e6631b3dd14160be68ee388eeb94d1e2b02e5c1a4c6ce5da69272c5057e'],
  ['preview_redeem', '0x82c661d8fec0d7c2d8de38b2276e2ae2976aee47a3860369fe9594d5dd9e45'],
  ['price', '0x2bd803c09c6b34a4d86ee95434129ea89232e91fab09f9e5dc6fe984fa9a6f'],
  ['redeem', '0x2ef0a97332ad048ac544d8dfacdd43e128b9816d599fdd0310960904fa18609'],
  ['staker_pool_info', '0x27aca223b48bc87a94edf580fbe4ad386c81bb31f6810b3dcfa60bf65f8f7f8'],
  ['switch_delegation_pool', '0xf6c64d1968e8a2fda72fc38a898e15653b6ed651d25142219ad011c1a7337c'],
  ['total_assets', '0x21e1f7868a42adf8781cf7d3a76817ceaaafda5d56b7e7d8f26bc4f27ecdbe2'],
  ['v_token_for_asset', '0x1af1863f84c6038664ebb45064ad3e4a459b237acc8df4acfbf8fcd52010b92'],
  ['withdraw', '0x15511cc3694f64379908437d6d64458dc76d02482052bfb8a5b33a72c054c77'],
  ['LiquidatePosition', '0x3731bef77d4371d61d696ce475c60d128c4e2c7bba44336635a540d6b180e88'],
  ['sandbox::vesu_v_token', '0x188de23b94d30534a54a7ea7ab1c832bb1c0d7e663d718c435775ede9107baf'],
];

export const KNOWN_SELECTORS: ReadonlyMap<string, string> = new Map(SELECTORS);

/** The selector of `name` when it is one of the above, else undefined (hash it). */
export const knownSelector = (name: unknown): string | undefined =>
  typeof name === 'string' ? KNOWN_SELECTORS.get(name) : undefined;
