export default defineBackground(() => {
  console.log('focus background');
});
