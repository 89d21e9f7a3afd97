export {
  compileConfiguration,
  loadConfigurationSnapshot,
  manifestFile,
  renderConfig,
  type CompiledConfiguration,
  type ConfigFile,
  type ConfigLine,
  type ConfigSection,
  type ConfigurationSnapshot,
} from './compiler/index.js';
