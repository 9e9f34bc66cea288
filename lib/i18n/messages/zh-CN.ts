import type { Messages } from './en';

/** Simplified Chinese catalogue. */
const zhCN: Messages = {
  title: {
    sale: '数字藏品发售',
    activity: '数字藏品活动',
    receive: '数字藏品领取',
    buyGoods: '购买商品',
  },
  route: {
    goodsDetail: '商品详情',
    payNow: '立即支付',
    notFound: '页面不存在',
    sellout: '已售罄',
  },
  nav: {
    label: '主导航',
    home: '首页',
    active: '活动',
    receive: '领取',
    chain: '自助上链',
    mine: '我的',
  },
  status: {
    comingSoon: '即将开售',
    onSale: '发售中',
    soldOut: '已售罄',
    ended: '已结束',
    opensAt: '{time} 开售',
  },
  home: {
    sales: '发售',
    empty: '暂无发售，敬请期待。',
    edition: '限量 {count, number} 份',
    blindBox: '盲盒',
    more: '更多发售',
    back: '上一页',
  },
  goods: {
    gallery: '图集',
    editionSize: '发行量',
    editionCount: '{count, number} 份',
    stockLeft: '剩余',
    stockCount: '{count, number} / {total, number}',
    price: '价格',
    limit: '每人限购',
    limitCount: '{count, number} 份',
    saleWindow: '发售时间',
    noEnd: '长期有效',
    author: '作者',
    publisher: '发行方',
    series: '系列',
    description: '作品介绍',
    chain: '区块链',
    contract: '合约',
    contractAddress: '合约地址',
    buy: '立即购买',
    soldOut: '已售罄',
    ended: '发售已结束',
    opensAt: '{time} 开售',
    odds: '盲盒概率',
    oddsItem: '{name}：{percent}',
    back: '返回',
  },
  notFound: {
    title: '页面不存在',
    body: '您访问的页面不存在或已被移除。',
    home: '返回首页',
  },
  storeNotFound: {
    title: '店铺不存在',
    body: '{host} 没有对应的店铺。',
    hint: '请检查您打开的链接，或向分享者确认正确的地址。',
  },
  ogCard: {
    edition: '限量 {count, number} 份',
  },
  wxTip: {
    title: '请在浏览器中打开',
    body: '点击右上角 ··· 并选择“在浏览器中打开”，即可购买和支付。',
    dismiss: '我知道了',
  },
  api: {
    busy: '当前购买人数过多，系统恢复中，请稍后重试',
  },
  viewer: {
    label: '图片查看',
    open: '全屏查看 {name}',
    close: '关闭',
  },
  sellout: {
    title: '已售罄',
    body: '本次发售已全部售出，敬请关注下一次发售。',
    home: '查看其他发售',
  },
};

export default zhCN;
